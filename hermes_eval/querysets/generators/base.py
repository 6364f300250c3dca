"""The query-generator protocol: a corpus in, a query set with its manifest out.

A generator is a frozen dataclass built from ``conf/queryset/*.yaml`` (``generator._target_``);
the same settings and ``seed`` over the same corpus give the same queries. Its manifest
(:func:`hermes_eval.querysets.generators.manifest.manifest`) names the generator, its version,
seed and params, the corpus fingerprint, counts and what was skipped and why. Text a query was
taken from is masked from the indexed corpus through the queries' ``meta`` (see ``QuerySet.masks``).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet


@runtime_checkable
class QueryGenerator(Protocol):
    """``generate(corpus, name)`` -> the query set called ``name``; ``seed`` fixes its sample."""

    seed: int

    def generate(self, corpus: Corpus, name: str) -> QuerySet: ...
