"""rank-bm25 (Okapi, BM25L, BM25Plus) behind the Index protocol; HERMES's sparse index."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Literal, Sequence

import numpy as np

from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.tokenizer import CodeTokenizer

_VARIANTS = {"okapi": "BM25Okapi", "bm25l": "BM25L", "bm25plus": "BM25Plus"}


@dataclass
class RankBM25Index:
    variant: Literal["okapi", "bm25l", "bm25plus"] = "okapi"
    k1: float = 1.5
    b: float = 0.75
    epsilon: float = 0.25  # okapi only: floor for negative idf
    delta: float | None = None  # bm25l (default 0.5) and bm25plus (default 1.0)
    tokenizer: Callable[[str], list[str]] = field(default_factory=CodeTokenizer)

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        if self.variant not in _VARIANTS:
            raise ValueError(f"unknown rank-bm25 variant {self.variant!r}; use one of {sorted(_VARIANTS)}")
        self._ids: list[str] = []
        self._tokens: list[list[str]] = []

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        self._fit(list(ids), [self.tokenizer(d) for d in docs])

    def _fit(self, ids: list[str], tokens: list[list[str]]) -> None:
        import rank_bm25

        self._ids, self._tokens = ids, tokens
        kwargs: dict = {"k1": self.k1, "b": self.b}
        if self.variant == "okapi":
            kwargs["epsilon"] = self.epsilon
        elif self.delta is not None:
            kwargs["delta"] = self.delta
        # rank-bm25 divides by zero on an all-empty corpus; give it one placeholder token
        safe = [t if t else ["\x00"] for t in tokens] or [["\x00"]]
        self._bm25 = getattr(rank_bm25, _VARIANTS[self.variant])(safe, **kwargs)
        postings: dict[str, list[int]] = {}
        for i, toks in enumerate(tokens):
            for t in set(toks):
                postings.setdefault(t, []).append(i)
        self._postings = {t: np.asarray(v, dtype=np.int64) for t, v in postings.items()}

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        for q in queries:
            terms = [t for t in self.tokenizer(q) if t in self._postings]
            if not terms:
                out.append([])
                continue
            matched = np.unique(np.concatenate([self._postings[t] for t in terms]))
            scores = np.asarray(self._bm25.get_batch_scores(terms, matched.tolist()), dtype=np.float64)
            full = np.zeros(len(self._ids))
            full[matched] = scores
            out.append(top_k(self._ids, full, k, matched))
        return out

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "rank_bm25.json").write_text(json.dumps({"ids": self._ids, "tokens": self._tokens}))

    def load(self, path: Path) -> None:
        data = json.loads((path / "rank_bm25.json").read_text())
        self._fit(data["ids"], data["tokens"])
