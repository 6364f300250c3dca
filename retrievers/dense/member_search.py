"""Exact search over a snapshot's members of a shared :class:`~retrievers.dense.vector_store.VectorStore`.

Reads only the snapshot's rows (one gather, in document order) and scores them as
:class:`~retrievers.dense.exact.ExactIndex` does, on the same float32 values in the same order, so its
rankings equal the per-snapshot exact index's. It is also the stated fallback for the backends with no
filtered search here (usearch's Python API has no filter; sqlite-vec): exact over the members.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.dense.exact import ExactIndex
from retrievers.dense.vector_store import Members
from retrievers.identity.declare import declare
from retrievers.index import Hit


@declare("retrievers.dense.member_search.MemberExactIndex")
@dataclass
class MemberExactIndex:
    """An :class:`ExactIndex` whose documents are :class:`Members` (or, as any vector index, a matrix)."""

    input: ClassVar[str] = "vector"

    def __post_init__(self) -> None:
        self._exact = ExactIndex()

    def build(self, ids: Sequence[str], docs: Members | np.ndarray) -> None:
        vectors = docs.vectors() if isinstance(docs, Members) else docs
        if len(ids) != len(vectors):
            raise ValueError(f"{len(ids)} ids for {len(vectors)} documents")
        self._exact.build(ids, vectors)

    def search(self, queries: np.ndarray, k: int) -> list[list[Hit]]:
        return self._exact.search(queries, k)

    def save(self, path: Path) -> None:
        self._exact.save(path)

    def load(self, path: Path) -> None:
        self._exact.load(path)
