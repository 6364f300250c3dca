"""rank-bm25 (Okapi, BM25L, BM25Plus) behind the Index protocol; HERMES's sparse index."""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
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
        self._tokens: list[list[str]] | None = []
        self._counted: list[tuple[int, dict[str, int]]] = []

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        counts = getattr(self.tokenizer, "counts", None)  # a memoizing tokenizer counts each text once
        if counts is not None:
            self._fit(list(ids), None, [counts(d) for d in docs])
        else:
            tokens = [self.tokenizer(d) for d in docs]
            self._fit(list(ids), tokens, [term_counts(t) for t in tokens])

    def _fit(self, ids: list[str], tokens: list[list[str]] | None, counted: list[tuple[int, dict]]) -> None:
        import rank_bm25

        self._ids, self._tokens, self._counted = ids, tokens, counted
        kwargs: dict = {"k1": self.k1, "b": self.b}
        if self.variant == "okapi":
            kwargs["epsilon"] = self.epsilon
        elif self.delta is not None:
            kwargs["delta"] = self.delta
        # rank-bm25 divides by zero on an all-empty corpus; give it one placeholder token
        safe = [c if c[0] else (1, {"\x00": 1}) for c in counted] or [(1, {"\x00": 1})]
        self._bm25 = _counted_class(getattr(rank_bm25, _VARIANTS[self.variant]))(safe, **kwargs)

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        for q in queries:
            terms = [t for t in self.tokenizer(q) if t in self._bm25.postings]
            if not terms:
                out.append([])
                continue
            matched = np.unique(np.concatenate([self._bm25.docs_of(t) for t in set(terms)]))
            scores = np.asarray(self._bm25.get_batch_scores(terms, matched.tolist()), dtype=np.float64)
            full = np.zeros(len(self._ids))
            full[matched] = scores
            out.append(top_k(self._ids, full, k, matched))
        return out

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        data = ({"ids": self._ids, "tokens": self._tokens} if self._tokens is not None
                else {"ids": self._ids, "counts": [[n, freqs] for n, freqs in self._counted]})
        (path / "rank_bm25.json").write_text(json.dumps(data))

    def load(self, path: Path) -> None:
        data = json.loads((path / "rank_bm25.json").read_text())
        if "tokens" in data:
            self._fit(data["ids"], data["tokens"], [term_counts(t) for t in data["tokens"]])
        else:
            self._fit(data["ids"], None, [(n, freqs) for n, freqs in data["counts"]])


def term_counts(tokens: list[str]) -> tuple[int, dict[str, int]]:
    """A document as rank-bm25 sees it: its length and each term's frequency."""
    return len(tokens), dict(Counter(tokens))


@lru_cache(maxsize=None)
def _counted_class(base: type) -> type:
    """``base`` (a rank-bm25 class) taking each document as (length, term frequencies) already counted:
    its ``_initialize`` with the counting loop left out, the same lengths, frequencies and document
    frequencies; and its ``get_batch_scores`` with each term's frequencies read from postings (one
    numpy gather per term) instead of one dict lookup per document per term, the library's formula
    otherwise kept term for term, so every score is bit-equal (tests/retrievers/sparse)."""
    formula = _FORMULAS[base.__name__]

    class Counted(base):
        def _initialize(self, corpus):
            nd: dict[str, int] = {}
            self.postings: dict[str, tuple[list[int], list[int]]] = {}  # term -> (documents, frequencies)
            self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            self._lengths = np.zeros(0, dtype=np.int64)
            num_doc = 0
            for length, freqs in corpus:
                self.doc_len.append(length)
                num_doc += length
                self.doc_freqs.append(freqs)
                for word, tf in freqs.items():
                    got = self.postings.get(word)
                    if got is None:
                        got = self.postings[word] = ([], [])
                        nd[word] = 0
                    got[0].append(self.corpus_size)
                    got[1].append(tf)
                    nd[word] += 1
                self.corpus_size += 1
            self.avgdl = num_doc / self.corpus_size
            return nd

        def _posting_arrays(self, term: str) -> tuple[np.ndarray, np.ndarray]:
            got = self._arrays.get(term)
            if got is None:
                docs, tfs = self.postings.get(term, ((), ()))
                got = self._arrays[term] = (np.asarray(docs, dtype=np.int64), np.asarray(tfs, dtype=np.int64))
            return got

        def docs_of(self, term: str) -> np.ndarray:
            """The documents holding ``term``, ascending."""
            return self._posting_arrays(term)[0]

        def get_batch_scores(self, query, doc_ids):
            doc_ids = np.asarray(doc_ids, dtype=np.int64)
            assert not doc_ids.size or doc_ids.max() < self.corpus_size
            if len(self._lengths) != self.corpus_size:  # the lengths as an array, made once per index
                self._lengths = np.array(self.doc_len)
            score = np.zeros(len(doc_ids))
            doc_len = self._lengths[doc_ids]
            full = np.zeros(self.corpus_size, dtype=np.int64)
            for q in query:
                docs, tfs = self._posting_arrays(q)
                full[docs] = tfs
                q_freq = full[doc_ids]
                full[docs] = 0
                score += formula(self, q, q_freq, doc_len)
            return score.tolist()

    Counted.__name__ = Counted.__qualname__ = f"Counted{base.__name__}"
    return Counted


# each variant's per-term score, as its get_batch_scores in rank_bm25 0.2.2 writes it (same operations in
# the same order, so the same floats)
def _okapi(m, q, q_freq, doc_len):
    return (m.idf.get(q) or 0) * (q_freq * (m.k1 + 1) / (q_freq + m.k1 * (1 - m.b + m.b * doc_len / m.avgdl)))


def _bm25l(m, q, q_freq, doc_len):
    ctd = q_freq / (1 - m.b + m.b * doc_len / m.avgdl)
    return (m.idf.get(q) or 0) * q_freq * (m.k1 + 1) * (ctd + m.delta) / (m.k1 + ctd + m.delta)


def _bm25plus(m, q, q_freq, doc_len):
    return (m.idf.get(q) or 0) * (m.delta + (q_freq * (m.k1 + 1)) / (m.k1 * (1 - m.b + m.b * doc_len / m.avgdl)
                                                                     + q_freq))


_FORMULAS = {"BM25Okapi": _okapi, "BM25L": _bm25l, "BM25Plus": _bm25plus}
