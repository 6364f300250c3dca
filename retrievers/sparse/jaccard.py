"""RepoCoder's sparse retriever (search_code.py, ``one-gram``): the Jaccard similarity of the
query's and a window's token sets, |Q ∩ D| / |Q ∪ D|; documents sharing no token never returned."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Sequence

import numpy as np

from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.tokenizer import GPT2PreTokenizer
from retrievers.identity.declare import declare


@declare("retrievers.sparse.jaccard.JaccardIndex")
@dataclass
class JaccardIndex:
    """Token sets per document in a binary sparse matrix; a query counts shared tokens by one product."""

    tokenizer: Callable[[str], list[str]] = field(default_factory=GPT2PreTokenizer)

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._vocab: dict[str, int] = {}
        self._matrix = None  # documents x vocabulary, 1 where the document has the token
        self._sizes = np.zeros(0)

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        from scipy import sparse

        self._ids, self._vocab = list(ids), {}
        rows, cols = [], []
        for i, d in enumerate(docs):
            for t in set(self.tokenizer(d)):
                rows.append(i)
                cols.append(self._vocab.setdefault(t, len(self._vocab)))
        data = np.ones(len(rows), dtype=np.float64)
        self._matrix = sparse.csr_matrix((data, (rows, cols)), shape=(len(self._ids), len(self._vocab)))
        self._sizes = np.asarray(self._matrix.sum(axis=1)).ravel()

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        for q in queries:
            tokens = set(self.tokenizer(q))
            cols = sorted({self._vocab[t] for t in tokens if t in self._vocab})
            if not cols or not self._ids:
                out.append([])
                continue
            shared = np.asarray(self._matrix[:, cols].sum(axis=1)).ravel()
            hit = np.flatnonzero(shared)
            scores = np.zeros(len(self._ids))
            scores[hit] = shared[hit] / (self._sizes[hit] + len(tokens) - shared[hit])
            out.append(top_k(self._ids, scores, k, hit))
        return out

    def save(self, path: Path) -> None:
        from scipy import sparse

        path.mkdir(parents=True, exist_ok=True)
        (path / "ids.json").write_text(json.dumps(self._ids))
        (path / "vocab.json").write_text(json.dumps(self._vocab))
        if self._matrix is not None:
            sparse.save_npz(path / "sets.npz", self._matrix)

    def load(self, path: Path) -> None:
        from scipy import sparse

        self._ids = json.loads((path / "ids.json").read_text())
        self._vocab = json.loads((path / "vocab.json").read_text())
        self._matrix = sparse.load_npz(path / "sets.npz").tocsr() if (path / "sets.npz").exists() else None
        self._sizes = (np.asarray(self._matrix.sum(axis=1)).ravel() if self._matrix is not None else np.zeros(0))
