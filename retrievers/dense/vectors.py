"""Coercing documents and queries to the float32 row matrices every vector index takes."""
from __future__ import annotations

import numpy as np


def as_rows(x, dim: int | None = None) -> np.ndarray:
    """A C-contiguous float32 matrix, one row per vector; a single vector becomes one row."""
    arr = np.asarray(x, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr[None, :] if arr.size else arr.reshape(0, dim or 0)
    if arr.ndim != 2:
        raise ValueError(f"expected a matrix of vectors, got shape {arr.shape}")
    if dim is not None and arr.shape[0] and arr.shape[1] != dim:
        raise ValueError(f"expected vectors of dimension {dim}, got {arr.shape[1]}")
    return np.ascontiguousarray(arr)


def search_graph(raw, q: np.ndarray, n: int, k: int) -> list:
    """Search an approximate index row by row, ties at the k cut broken by id.

    ``raw(rows, want, exhaustive)`` returns one hit list per row. When ``k >= n`` the search is
    exhaustive, since an ANN graph may not reach every node.
    """
    from retrievers.index import settle_ties

    if not n or not len(q):
        return [[] for _ in range(len(q))]
    exhaustive = k >= n
    first = raw(q, min(k + 1, n), exhaustive)
    return [settle_ties(lambda want, row=row: raw(row, want, exhaustive)[0], k, n, hits)
            for row, hits in zip(q[:, None, :], first)]
