"""Auto queries from symbol names, HERMES style: ``calculate_bmi`` -> "how does calculate bmi work".

Nothing is masked: the name is part of the code the query asks about, and blanking it would
break the definition that is the gold. These queries are lexical matches by construction; the
manifest says so and hygiene's ``lexical_containment_share`` shows it (close to 1), so read their
BM25 numbers as an upper bound, never as semantic retrieval quality.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.python.definitions import def_start, iter_defs, parsed_python
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import stratified_sample, unique_texts
from hermes_eval.core import Query, Span
from retrievers.identity.declare import declare

_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")
NOTE = ("symbol-name queries are lexical matches by construction (the name stays in the corpus); "
        "see hygiene.lexical_containment_share")


def symbol_words(name: str) -> list[str]:
    """``calculate_bmi`` -> [calculate, bmi]; ``parseHTTPResponse2`` -> [parse, http, response, 2]."""
    return [p.lower() for chunk in name.split("_") if chunk for p in _PARTS.findall(chunk)]


@declare("hermes_eval.querysets.symbols.SymbolNameQueries")
@dataclass(frozen=True)
class SymbolNameQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    template: str = "how does {words} work"
    min_words: int = 2
    include_private: bool = True
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        candidates: list[Query] = []
        skipped = {"dunder": 0, "private": 0, "short_name": 0, "duplicate_text": 0, "syntax_error": 0}
        for f, tree in parsed_python(corpus, skipped):
            for symbol, node in iter_defs(tree):
                if node.name.startswith("__") and node.name.endswith("__"):
                    skipped["dunder"] += 1
                    continue
                if node.name.startswith("_") and not self.include_private:
                    skipped["private"] += 1
                    continue
                words = symbol_words(node.name)
                if len(words) < self.min_words:
                    skipped["short_name"] += 1
                    continue
                candidates.append(Query(
                    qid=f"{f.path}:{node.lineno}:{symbol}", query=self.template.format(words=" ".join(words)),
                    gold=(Span(f.path, def_start(node), node.end_lineno),), kind="symbol", repo=f.repo,
                    meta={"symbol": symbol, "lexical_match": True}))
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = stratified_sample(unique, self.max_queries, self.seed)
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "symbol", self.version, self.seed,
            {"template": self.template, "min_words": self.min_words,
             "include_private": self.include_private, "max_queries": self.max_queries}, corpus,
            {"candidates": len(candidates), "queries": len(chosen)}, skipped, notes=NOTE))
