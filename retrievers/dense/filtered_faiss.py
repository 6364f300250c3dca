"""One FAISS index over a shared vector store, searched per snapshot with an id filter.

:class:`SharedFaiss` holds one index of the configured kind over every row of a
:class:`~retrievers.dense.vector_store.VectorStore`, adding the rows stored since it last grew (an IVF
index is trained on the rows of the first snapshot it sees, with the configured seed). A snapshot's
:class:`FilteredFaissView` searches it with ``SearchParameters(sel=IDSelectorBatch(members))`` (HNSW's
and IVF's own parameter classes carry ``efSearch`` / ``nprobe`` beside the selector), maps each row
found to the snapshot's documents holding that text (equal scores, ordered by id) and settles ties at
the cut as every backend does. Flat is exact; HNSW and IVF are approximate over the filtered set, and
at ``k >= n`` search the members exhaustively.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.dense.faiss_index import FaissIndex, _FACTORIES
from retrievers.dense.vector_store import Members, VectorStore
from retrievers.dense.vectors import as_rows
from retrievers.identity.declare import declare
from retrievers.index import Hit, check_k, settle_ties


class SharedFaiss:
    """``config``'s kind of FAISS index over all of ``store``'s rows, grown on demand."""

    def __init__(self, config: FaissIndex, store: VectorStore):
        self.config, self.store = config, store
        self._index = None

    def grow(self, seed_rows: np.ndarray) -> None:
        """Add the store's rows not indexed yet; a new IVF index trains on ``seed_rows`` first."""
        import faiss

        have = 0 if self._index is None else self._index.ntotal
        if have == len(self.store):
            return
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)  # insertion order, and so an HNSW graph, stays fixed
        try:
            if self._index is None:
                self._index = _FACTORIES[self.config.kind](faiss, self.store.dim, self.config,
                                                           max(len(np.unique(seed_rows)), 1))
                if self.config.kind == "ivf":
                    self._index.cp.seed = self.config.seed
                    self._index.train(self.store.take(np.unique(seed_rows)))
            self._index.add(self.store.take(np.arange(have, len(self.store))))
        finally:
            faiss.omp_set_num_threads(threads)

    def search_rows(self, q: np.ndarray, want: int, rows: np.ndarray, exhaustive: bool):
        """(scores, rows) of the ``want`` best of ``rows`` for each query row."""
        import faiss

        sel = faiss.IDSelectorBatch(np.ascontiguousarray(rows, dtype=np.int64))
        kind, c = self.config.kind, self.config
        if kind == "hnsw" and not exhaustive:
            params = faiss.SearchParametersHNSW(sel=sel, efSearch=max(c.ef_search, want))
        elif kind == "ivf":
            params = faiss.SearchParametersIVF(sel=sel, nprobe=self._index.nlist if exhaustive else
                                               min(c.nprobe, self._index.nlist))
        else:
            params = faiss.SearchParameters(sel=sel)
        index = faiss.downcast_index(self._index.storage) if kind == "hnsw" and exhaustive else self._index
        scores, found = index.search(q, want, params=params)
        del sel  # the selector lives until the search has returned
        return scores, found


@declare("retrievers.dense.filtered_faiss.FilteredFaissView")
@dataclass
class FilteredFaissView:
    """One snapshot's dense leg: ``shared`` searched over this snapshot's members only."""

    shared: SharedFaiss
    input: ClassVar[str] = "vector"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._rows = np.zeros(0, dtype=np.int64)
        self._docs_of: dict[int, list[str]] = {}

    def build(self, ids: Sequence[str], docs: Members) -> None:
        if not isinstance(docs, Members) or docs.store is not self.shared.store:
            raise TypeError("a filtered view is built from Members of its shared store")
        self._ids = list(ids)
        self._docs_of = {}
        for doc_id, row in zip(self._ids, docs.rows.tolist()):
            self._docs_of.setdefault(row, []).append(doc_id)
        for held in self._docs_of.values():
            held.sort()
        self._rows = np.array(sorted(self._docs_of), dtype=np.int64)
        if len(self._rows):
            self.shared.grow(docs.rows)

    def _fetch(self, q: np.ndarray, want: int, exhaustive: bool) -> list[Hit]:
        rows_wanted = min(want, len(self._rows))  # each row found stands for >= 1 document
        scores, found = self.shared.search_rows(q[None, :], rows_wanted, self._rows, exhaustive)
        hits: list[Hit] = []
        for r, s in zip(found[0], scores[0]):
            if r >= 0:
                hits.extend((doc, float(s)) for doc in self._docs_of[int(r)])
        return hits

    def search(self, queries: np.ndarray, k: int) -> list[list[Hit]]:
        k, q = check_k(k), as_rows(queries)
        n = len(self._ids)
        if not n:
            return [[] for _ in range(len(q))]
        exhaustive = k >= len(self._rows)
        return [settle_ties(lambda want, row=row: self._fetch(row, want, exhaustive), k, n) for row in q]

    def save(self, path: Path) -> None:
        raise NotImplementedError("a filtered view belongs to its snapshot set's shared index: it is not saved")

    def load(self, path: Path) -> None:
        raise NotImplementedError("a filtered view belongs to its snapshot set's shared index: it is not loaded")
