"""Exact inner-product search with numpy: the reference every ANN index is checked against."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.index import Hit, check_k, top_k
from retrievers.identity.declare import declare


@declare("retrievers.dense.exact.ExactIndex")
@dataclass
class ExactIndex:
    """Brute-force cosine (inner product of normalised vectors)."""

    input: ClassVar[str] = "vector"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._vectors = np.zeros((0, 0), dtype=np.float32)

    def build(self, ids: Sequence[str], docs: np.ndarray) -> None:
        self._ids = list(ids)
        self._vectors = np.ascontiguousarray(docs, dtype=np.float32)

    def search(self, queries: np.ndarray, k: int) -> list[list[Hit]]:
        k = check_k(k)
        q = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        if not self._ids:
            return [[] for _ in range(len(q))]
        scores = q @ self._vectors.T
        return [top_k(self._ids, row.astype(np.float64), k) for row in scores]

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        np.save(path / "vectors.npy", self._vectors)
        (path / "ids.json").write_text(json.dumps(self._ids))

    def load(self, path: Path) -> None:
        self._vectors = np.load(path / "vectors.npy")
        self._ids = json.loads((path / "ids.json").read_text())
