"""bm25s (sparse-matrix BM25: Lucene, Robertson, ATIRE, BM25L, BM25+) behind the Index protocol."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal, Sequence

import numpy as np

from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.bm25s_counts import index_from_counts
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.term_counts import Stacked
from retrievers.sparse.tokenizer import CodeTokenizer
from retrievers.identity.declare import declare

Method = Literal["lucene", "robertson", "atire", "bm25l", "bm25+"]


@declare("retrievers.sparse.bm25s.BM25SIndex")
@dataclass
class BM25SIndex:
    """Documents matching no query term are never returned (BM25L/BM25+ score them above 0)."""

    method: Method = "lucene"
    k1: float = 1.5
    b: float = 0.75
    delta: float = 0.5  # bm25l and bm25+ only
    tokenizer: Tokenizer = field(default_factory=CodeTokenizer)

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._bm25 = None

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        import bm25s

        self._ids = list(ids)
        self._bm25 = bm25s.BM25(method=self.method, k1=self.k1, b=self.b, delta=self.delta)
        if not self._ids:
            return
        many = self.tokenizer.term_counts  # a memoizing tokenizer counts each text once
        if many is not None:
            st = Stacked.of(many(list(docs)))
            index_from_counts(self._bm25, st.lengths, st.doc, st.term, st.tf, self.tokenizer.terms.terms)
        else:
            self._bm25.index([self.tokenizer(d) for d in docs], show_progress=False)

    def _matching(self, token_ids: list[int]) -> np.ndarray:
        """Rows of documents that contain at least one of ``token_ids`` (from the CSC matrix)."""
        m = self._bm25.scores
        parts = [m["indices"][m["indptr"][t]:m["indptr"][t + 1]] for t in token_ids]
        return np.unique(np.concatenate(parts)).astype(np.int64) if parts else np.zeros(0, np.int64)

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        for q in queries:
            vocab = self._bm25.vocab_dict if self._ids else {}
            token_ids = [vocab[t] for t in self.tokenizer(q) if t in vocab and t]
            if not token_ids:
                out.append([])
                continue
            scores = np.asarray(self._bm25.get_scores(token_ids), dtype=np.float64)
            out.append(top_k(self._ids, scores, k, self._matching(sorted(set(token_ids)))))
        return out

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "ids.json").write_text(json.dumps(self._ids))
        if self._ids:
            self._bm25.save(str(path / "bm25s"), show_progress=False)

    def load(self, path: Path) -> None:
        import bm25s

        self._ids = json.loads((path / "ids.json").read_text())
        self._bm25 = (bm25s.BM25.load(str(path / "bm25s"), show_progress=False) if self._ids
                      else bm25s.BM25(method=self.method, k1=self.k1, b=self.b, delta=self.delta))
