"""Document ids renamed to one fixed width before they reach ranx, and back.

ranx stores a run's or qrels' document ids as numpy ``<U{longest id}`` arrays, and numba compiles its
typed-dict builders (``create_and_sort`` and six more) once per such width: about 11 s of compile for
each new id length, in every fresh environment (its disk cache is keyed by that type). Renaming every
id to a token of :data:`WIDTH` digits keeps one compile per kernel whatever the ids are. The tokens
sort as the ids do and keep their insertion order, so ranx's results (ties included) are unchanged.
"""
from __future__ import annotations

from typing import Iterable, Mapping

WIDTH = 12  # digits: up to 10**12 distinct ids per call


class FixedWidthIds:
    """An order-preserving renaming of ``ids`` to tokens of :data:`WIDTH` digits."""

    def __init__(self, ids: Iterable[str]) -> None:
        distinct = sorted(set(ids))
        if len(distinct) >= 10 ** WIDTH:
            raise ValueError(f"{len(distinct)} distinct ids do not fit {WIDTH}-digit tokens")
        self.token = {d: f"{i:0{WIDTH}d}" for i, d in enumerate(distinct)}
        self.id = {t: d for d, t in self.token.items()}

    @classmethod
    def of(cls, *tables: Mapping[str, Mapping[str, object]]) -> "FixedWidthIds":
        """The renaming of every document id in ``tables`` (query id -> {doc id: value})."""
        return cls(d for table in tables for docs in table.values() for d in docs)

    def rename(self, table: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
        """``table`` (query id -> {doc id: value}) with its document ids as tokens, in the same order."""
        return {q: {self.token[d]: v for d, v in docs.items()} for q, docs in table.items()}

    def restore(self, docs: Mapping[str, float]) -> dict[str, float]:
        """One query's {token: value} with the original document ids, in the same order."""
        return {self.id[t]: v for t, v in docs.items()}
