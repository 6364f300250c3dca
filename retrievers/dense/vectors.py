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
