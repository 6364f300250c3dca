"""rank-bm25 (Okapi, BM25L, BM25Plus) behind the Index protocol; HERMES's sparse index."""
from __future__ import annotations

import json
import math
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal, Sequence

import numpy as np

from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.term_counts import Stacked, TermCounts, Vocabulary
from retrievers.sparse.tokenizer import CodeTokenizer
from retrievers.identity.declare import declare

_VARIANTS = {"okapi": "BM25Okapi", "bm25l": "BM25L", "bm25plus": "BM25Plus"}


@declare("retrievers.sparse.rank_bm25.RankBM25Index")
@dataclass
class RankBM25Index:
    variant: Literal["okapi", "bm25l", "bm25plus"] = "okapi"
    k1: float = 1.5
    b: float = 0.75
    epsilon: float = 0.25  # okapi only: floor for negative idf
    delta: float | None = None  # bm25l (default 0.5) and bm25plus (default 1.0)
    tokenizer: Tokenizer = field(default_factory=CodeTokenizer)

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        if self.variant not in _VARIANTS:
            raise ValueError(f"unknown rank-bm25 variant {self.variant!r}; use one of {sorted(_VARIANTS)}")
        self._ids: list[str] = []
        self._tokens: list[list[str]] | None = []

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        many = self.tokenizer.term_counts  # a memoizing tokenizer counts each text once
        if many is not None:
            self._fit(list(ids), None, CountedCorpus(self.tokenizer.terms, many(list(docs))))
        else:
            tokens = [self.tokenizer(d) for d in docs]
            self._fit(list(ids), tokens, CountedCorpus.of_tokens(tokens))

    def _fit(self, ids: list[str], tokens: list[list[str]] | None, corpus: CountedCorpus) -> None:
        import rank_bm25

        self._ids, self._tokens = ids, tokens
        kwargs: dict = {"k1": self.k1, "b": self.b}
        if self.variant == "okapi":
            kwargs["epsilon"] = self.epsilon
        elif self.delta is not None:
            kwargs["delta"] = self.delta
        self._bm25 = _counted_class(getattr(rank_bm25, _VARIANTS[self.variant]))(corpus, **kwargs)

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        for q in queries:
            terms = [t for t in self.tokenizer(q) if t in self._bm25.rows]
            if not terms:
                out.append([])
                continue
            matched = _union([self._bm25.docs_of(t) for t in set(terms)], len(self._ids))
            scores = np.asarray(self._bm25.get_batch_scores(terms, matched), dtype=np.float64)
            full = np.zeros(len(self._ids))
            full[matched] = scores
            out.append(top_k(self._ids, full, k, matched))
        return out

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        data = ({"ids": self._ids, "tokens": self._tokens} if self._tokens is not None
                else {"ids": self._ids, "counts": self._bm25.corpus.as_lists()})
        (path / "rank_bm25.json").write_text(json.dumps(data))

    def load(self, path: Path) -> None:
        data = json.loads((path / "rank_bm25.json").read_text())
        if "tokens" in data:
            self._fit(data["ids"], data["tokens"], CountedCorpus.of_tokens(data["tokens"]))
        else:
            vocab = Vocabulary()
            docs = [TermCounts.of(n, freqs, vocab) for n, freqs in data["counts"]]
            self._fit(data["ids"], None, CountedCorpus(vocab, docs))


class CountedCorpus:
    """A corpus as rank-bm25's counting loop would see it, already counted: each document's length and
    term frequencies (``TermCounts`` over ``vocab``), stacked for numpy."""

    def __init__(self, vocab: Vocabulary, docs: Sequence[TermCounts]):
        self.vocab = vocab
        self.docs = docs
        if any(c.length for c in docs):  # empty documents as the library takes them: no terms, length 0
            self.stacked = Stacked.of(docs)
        else:  # the library divides by zero when no document has a token: one placeholder token each
            self.stacked = Stacked.of([TermCounts.of(1, {"\x00": 1}, vocab)] * max(1, len(docs)))

    @classmethod
    def of_tokens(cls, tokens: Sequence[Sequence[str]]) -> CountedCorpus:
        vocab = Vocabulary()
        return cls(vocab, [TermCounts.of_tokens(t, vocab) for t in tokens])

    def as_lists(self) -> list[list]:
        """[[length, {term: frequency}], ...] per document, for JSON."""
        return [[c.length, c.as_dict(self.vocab)] for c in self.docs]


def _union(rows: list[np.ndarray], n: int) -> np.ndarray:
    """The sorted distinct row numbers of ``rows`` (what ``np.unique`` of their concatenation gives, without the
    ``numpy.ma`` import ``np.unique`` makes, about 8 ms)."""
    seen = np.zeros(n, dtype=bool)
    for r in rows:
        seen[r] = True
    return np.flatnonzero(seen)


@lru_cache(maxsize=None)
def _counted_class(base: type) -> type:
    """``base`` (a rank-bm25 class) taking a ``CountedCorpus``: its ``_initialize`` done with numpy over
    the stacked counts (the same lengths and document frequencies, terms in the order the library's
    dict would hold them, so its idf loop sums them in the same order); and its ``get_batch_scores``
    with each term's frequencies read from postings (one numpy gather per term) instead of one dict
    lookup per document per term; its ``_calc_idf`` once per distinct document frequency, not per term.
    The library's formulas are kept operation for operation, so every idf and score is bit-equal
    (tests/retrievers/sparse). ``doc_freqs`` (per-document dicts) is not kept."""
    formula, idf_of = _FORMULAS[base.__name__], _IDFS[base.__name__]

    class Counted(base):
        def _initialize(self, corpus):
            self.corpus = corpus
            self.doc_len = corpus.stacked.lengths.tolist()
            self.corpus_size = len(self.doc_len)
            self.avgdl = sum(self.doc_len) / self.corpus_size
            self._lengths = corpus.stacked.lengths
            p = corpus.stacked.index()
            self._docs, self._tfs = p.docs, p.tfs
            names, bounds, df = corpus.vocab.terms, p.bounds.tolist(), p.df.tolist()
            words = [names[t] for t in p.terms.tolist()]
            self.rows = dict(zip(words, range(len(words))))  # term -> its postings' row in bounds
            self._bounds = bounds
            order = p.first_seen.tolist()
            return [words[i] for i in order], [df[i] for i in order]  # the library's ``nd``, as two lists

        def _calc_idf(self, nd):
            idf_of(self, *nd)

        def docs_of(self, term: str) -> np.ndarray:
            """The documents holding ``term``, ascending."""
            a, b = self._span(term)
            return self._docs[a:b]

        def _span(self, term: str) -> tuple[int, int]:
            i = self.rows.get(term)
            return (0, 0) if i is None else (self._bounds[i], self._bounds[i + 1])

        def get_scores(self, query):
            return self.get_batch_scores(query, np.arange(self.corpus_size))

        def get_batch_scores(self, query, doc_ids):
            doc_ids = np.asarray(doc_ids, dtype=np.int64)
            assert not doc_ids.size or doc_ids.max() < self.corpus_size
            score = np.zeros(len(doc_ids))
            doc_len = self._lengths[doc_ids]
            full = np.zeros(self.corpus_size, dtype=np.int64)
            for q in query:
                a, b = self._span(q)
                docs = self._docs[a:b]
                full[docs] = self._tfs[a:b]
                q_freq = full[doc_ids]
                full[docs] = 0
                score += formula(self, q, q_freq, doc_len)
            return score

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


# each variant's idf, as its _calc_idf in rank_bm25 0.2.2 writes it; a term's idf depends on its document
# frequency alone, so each distinct frequency is computed once
def _idf_okapi(m, words: list[str], dfs: list[int]) -> None:
    table = {f: math.log(m.corpus_size - f + 0.5) - math.log(f + 0.5) for f in set(dfs)}
    idf = [table[f] for f in dfs]
    m.idf = dict(zip(words, idf))
    m.average_idf = float(np.cumsum(idf)[-1]) / len(m.idf)  # the library's running sum, term by term
    eps = m.epsilon * m.average_idf
    for word, value in zip(words, idf):
        if value < 0:
            m.idf[word] = eps


def _idf_bm25l(m, words: list[str], dfs: list[int]) -> None:
    table = {f: math.log(m.corpus_size + 1) - math.log(f + 0.5) for f in set(dfs)}
    m.idf = {w: table[f] for w, f in zip(words, dfs)}


def _idf_bm25plus(m, words: list[str], dfs: list[int]) -> None:
    table = {f: math.log((m.corpus_size + 1) / f) for f in set(dfs)}
    m.idf = {w: table[f] for w, f in zip(words, dfs)}


_IDFS = {"BM25Okapi": _idf_okapi, "BM25L": _idf_bm25l, "BM25Plus": _idf_bm25plus}
