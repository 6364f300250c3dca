"""One query set from several generators, sampled so every language gets an equal share.

Each part generates its own set over the corpus (give parts a generous ``max_queries``: this
sampler does the balancing); the pooled queries are sampled round-robin over languages
(``meta.language``, else the language of the file the query was made from), then repositories.
The manifest keeps each part's manifest (its counts and skip reasons) under ``parts``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from hermes_eval.core import Query
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus.languages import detect_language
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import balanced_sample
from retrievers.identity.declare import declare


def with_language(q: Query) -> Query:
    """``q`` with ``meta.language`` set (from the file its exclude or gold lies in when missing)."""
    if q.meta.get("language"):
        return q
    spans = q.exclude or q.gold
    lang = detect_language(spans[0].path) if spans else None
    return replace(q, meta=dict(q.meta, language=lang or "unknown"))


@declare("hermes_eval.querysets.combined.CombinedQueries")
@dataclass(frozen=True)
class CombinedQueries:
    """Generator config: ``parts`` are generator configs (each with ``_target_``)."""

    parts: Sequence[Any] = ()
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        if not self.parts:
            raise UserError("queryset.generator.parts is empty: list the generators to combine")
        pool: dict[str, Query] = {}
        parts: list[dict] = []
        repeated = 0
        for part in self.parts:
            qs = part.generate(corpus, name)
            parts.append(qs.manifest)
            for q in qs.queries:
                if q.qid in pool:
                    repeated += 1
                    continue
                pool[q.qid] = with_language(q)
        chosen = balanced_sample(list(pool.values()), self.max_queries, self.seed)
        per_language: dict[str, int] = {}
        per_kind: dict[str, int] = {}
        for q in chosen:
            per_language[q.meta["language"]] = per_language.get(q.meta["language"], 0) + 1
            per_kind[q.kind] = per_kind.get(q.kind, 0) + 1
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "combined", self.version, self.seed, {"max_queries": self.max_queries}, corpus,
            {"pooled": len(pool), "queries": len(chosen)}, {"repeated_qid": repeated},
            per_language=dict(sorted(per_language.items())), per_kind=dict(sorted(per_kind.items())),
            parts=parts))
