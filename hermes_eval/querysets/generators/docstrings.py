"""Auto queries from Python docstrings: first paragraph as the query, the definition as gold.

The docstring is recorded as a mask so the runner blanks it from the indexed corpus;
otherwise the benchmark measures self-retrieval (CodeSearchNet practice).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.python.definitions import def_start, iter_defs, parsed_python
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import stratified_sample, unique_texts
from hermes_eval.core import Query, Span
from retrievers.identity.declare import declare

_WS = re.compile(r"\s+")


def first_paragraph(doc: str) -> str:
    return _WS.sub(" ", re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]).strip()


@declare("hermes_eval.querysets.docstrings.DocstringQueries")
@dataclass(frozen=True)
class DocstringQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    min_words: int = 4
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        skipped = {"short_docstring": 0, "duplicate_text": 0, "syntax_error": 0}
        candidates = docstring_candidates(corpus, self.min_words, skipped)
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = stratified_sample(unique, self.max_queries, self.seed)
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "docstring", self.version, self.seed,
            {"min_words": self.min_words, "max_queries": self.max_queries}, corpus,
            {"candidates": len(candidates), "queries": len(chosen)}, skipped))


def docstring_candidates(corpus: Corpus, min_words: int, skipped: dict[str, int]) -> list[Query]:
    """One query per Python definition with a docstring of at least ``min_words`` words in its
    first paragraph; the rest are counted in ``skipped``."""
    candidates: list[Query] = []
    for f, tree in parsed_python(corpus, skipped):
        for symbol, node in iter_defs(tree):
            doc = ast.get_docstring(node, clean=True)
            if not doc:
                continue
            text = first_paragraph(doc)
            if len(text.split()) < min_words:
                skipped["short_docstring"] = skipped.get("short_docstring", 0) + 1
                continue
            expr = node.body[0]
            candidates.append(Query(
                qid=f"{f.path}:{node.lineno}:{symbol}", query=text,
                gold=(Span(f.path, def_start(node), node.end_lineno),), kind="docstring", repo=f.repo,
                meta={"symbol": symbol,
                      "mask": [Span(f.path, expr.lineno, expr.end_lineno).to_dict()]}))
    return candidates
