"""FAISS inner-product indexes (HERMES's dense index): Flat, IVF-Flat, HNSW-Flat.

Vectors are L2-normalised, so inner product is cosine. IVF trains its k-means on the corpus
(``nlist`` is clamped to the corpus size); HNSW is built single-threaded so its graph, and
therefore its answers, are the same on every run on one machine. Another CPU (another SIMD path)
computes distances with other low bits, so it may build another graph and answer differently.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Literal, Sequence

import numpy as np

from retrievers.dense.vectors import as_rows, search_graph
from retrievers.index import Hit, check_k
from retrievers.identity.declare import declare

Kind = Literal["flat", "ivf", "hnsw"]


def _flat(faiss, dim: int, ix: "FaissIndex", n: int):
    return faiss.IndexFlatIP(dim)


def _ivf(faiss, dim: int, ix: "FaissIndex", n: int):
    nlist = max(1, min(ix.nlist, n))
    return faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, nlist, faiss.METRIC_INNER_PRODUCT)


def _hnsw(faiss, dim: int, ix: "FaissIndex", n: int):
    index = faiss.IndexHNSWFlat(dim, ix.M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = ix.ef_construction
    return index


_FACTORIES: dict[str, Callable] = {"flat": _flat, "ivf": _ivf, "hnsw": _hnsw}


@declare("retrievers.dense.faiss_index.FaissIndex", version=2)  # 2: HNSW hits rescored with one kernel
@dataclass
class FaissIndex:
    """One FAISS inner-product index of the given kind; saved with ``faiss.write_index``.

    Ties at the cut (the protocol: :class:`retrievers.index.Index`):

    - ``flat`` is exact: every vector is scored, and among hits tied at the k-th score the k smallest
      ids are returned.
    - ``ivf`` and ``hnsw`` are approximate: up to k hits, best first, equal scores in ascending id order
      (:func:`retrievers.dense.vectors.search_graph` sorts what the engine returns by (-score, id)), but
      which members of a tie group come back is not guaranteed: only those the probed lists or the graph
      search reach are candidates. HNSW's own search scores some neighbours four at a time and others
      one by one (on AVX2, 30 copies of a vector scored 1.0 for one and 0.99999994 for the rest), so the
      hits it finds are scored again with one kernel (:meth:`_rescored`, since version 2): copies it
      reaches tie and come back in id order. At ``k >= n`` both search exhaustively (every list, or the
      flat storage) and are exact.
    """

    kind: Kind = "flat"
    nlist: int = 32  # ivf
    nprobe: int = 16  # ivf
    M: int = 32  # hnsw
    ef_construction: int = 64  # hnsw
    ef_search: int = 128  # hnsw
    seed: int = 1234  # ivf k-means

    input: ClassVar[str] = "vector"

    def __post_init__(self) -> None:
        if self.kind not in _FACTORIES:
            raise ValueError(f"unknown faiss kind {self.kind!r}; use one of {sorted(_FACTORIES)}")
        self._ids: list[str] = []
        self._index = None

    def build(self, ids: Sequence[str], docs: np.ndarray) -> None:
        import faiss

        self._ids = list(ids)
        x = as_rows(docs)
        if not self._ids:
            self._index = None
            return
        index = _FACTORIES[self.kind](faiss, x.shape[1], self, len(self._ids))
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)  # HNSW insertion order, and so the graph, stays fixed
        try:
            if self.kind == "ivf":
                index.cp.seed = self.seed
                index.train(x)
            index.add(x)
        finally:
            faiss.omp_set_num_threads(threads)
        self._index = index
        self._tune()

    def _tune(self) -> None:
        if self.kind == "ivf":
            self._index.nprobe = min(self.nprobe, self._index.nlist)
        elif self.kind == "hnsw":
            self._index.hnsw.efSearch = self.ef_search

    def _raw(self, q: np.ndarray, want: int, exhaustive: bool) -> list[list[Hit]]:
        import faiss

        index, params = self._index, None
        if exhaustive and self.kind == "hnsw":
            index = faiss.downcast_index(self._index.storage)
        elif exhaustive and self.kind == "ivf":
            params = faiss.SearchParametersIVF(nprobe=self._index.nlist)
        scores, rows = index.search(q, want, params=params) if params else index.search(q, want)
        if self.kind == "hnsw":
            scores = self._rescored(q, rows)
        return [[(self._ids[r], float(s)) for r, s in zip(rr, ss) if r >= 0] for rr, ss in zip(rows, scores)]

    def _rescored(self, q: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The found rows' inner products computed again, one row at a time in float64 (then float32):
        HNSW's search scores some neighbours four at a time and others one by one, whose low bits differ
        (identical vectors scored 1.0 and 0.99999994 on AVX2); one kernel for every hit makes identical
        vectors tie, so they come back in id order."""
        import faiss

        storage = faiss.downcast_index(self._index.storage)
        out = np.full(rows.shape, -np.inf, dtype=np.float32)
        for i, (qv, rr) in enumerate(zip(q, rows)):
            found = rr[rr >= 0]
            if len(found):
                vecs = storage.reconstruct_batch(found).astype(np.float64)
                out[i, : len(found)] = np.einsum("ij,j->i", vecs, qv.astype(np.float64)).astype(np.float32)
        return out

    def search(self, queries: np.ndarray, k: int) -> list[list[Hit]]:
        return search_graph(self._raw, as_rows(queries), len(self._ids), check_k(k))

    def save(self, path: Path) -> None:
        import faiss

        path.mkdir(parents=True, exist_ok=True)
        (path / "ids.json").write_text(json.dumps(self._ids))
        if self._index is not None:
            faiss.write_index(self._index, str(path / "index.faiss"))

    def load(self, path: Path) -> None:
        import faiss

        self._ids = json.loads((path / "ids.json").read_text())
        self._index = faiss.read_index(str(path / "index.faiss")) if self._ids else None
        if self._index is not None:
            self._tune()
