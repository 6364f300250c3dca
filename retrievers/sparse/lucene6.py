"""Lucene 6.2's ``BM25Similarity`` over one field, float for float (what an index built by ``IndexWriter`` with
``new StandardAnalyzer()`` and searched through the classic ``QueryParser`` ranks; the BLIZZARD baseline is one).

``idf = (float) ln(1 + (N - n + 0.5) / (n + 0.5))`` over the documents that have a token,
``avgdl = (float) (sumTotalTermFreq / docCount)``, per term
``idf * (k1 + 1) * tf / (tf + k1 * (1 - b + b * NORM_TABLE[norm] / avgdl))`` in float, the clauses summed in double
and cast to float (``BooleanScorer``). The classic ``QueryParser`` with its default OR makes every token of the
query a SHOULD clause, repeats included, so a word that occurs twice counts twice; more than ``max_clauses``
(``BooleanQuery.maxClauseCount``, 1024) top-level clauses is a ParseException, which callers like BLIZZARD's
swallow: no results. Ties rank in document order (Lucene's doc ids) in :meth:`Lucene6BM25Index.rank`, by id in
:meth:`~Lucene6BM25Index.search`, as every index here does.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.identity.declare import declare
from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.lucene_analyzer import StandardAnalyzer
from retrievers.sparse.lucene_norms import NORM_TABLE, encode_norm
from retrievers.sparse.lucene_query_words import first_words
from retrievers.sparse.term_counts import Stacked, TermCounts, Vocabulary

MAX_CLAUSES = 1024  # BooleanQuery.getMaxClauseCount() default


@declare("retrievers.sparse.lucene.Lucene6BM25Index")
@dataclass
class Lucene6BM25Index:
    """Lucene 6.2's BM25 over whole documents (one field), exactly: see the module's docstring.

    ``tokenizer`` analyzes documents, ``query_tokenizer`` queries (default: the same analyzer, as
    ``QueryParser(field, analyzer)`` with the index's analyzer); ``max_query_words`` cuts a query to its
    first words before parsing (BLIZZARD's baseline: 1024); ``max_clauses`` is Lucene's clause limit
    (a query over it returns nothing; 0: no limit)."""

    k1: float = 1.2
    b: float = 0.75
    tokenizer: Tokenizer = field(default_factory=StandardAnalyzer)
    query_tokenizer: Tokenizer | None = None
    max_query_words: int | None = None
    max_clauses: int = MAX_CLAUSES

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._vocab = Vocabulary()
        self._rows: dict[str, int] = {}

    # --- index -------------------------------------------------------------------------------------------
    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        many = self.tokenizer.term_counts  # a memoizing tokenizer counts each text once
        if many is not None:
            counted = many(list(docs))
            vocab = self.tokenizer.terms
        else:
            vocab = Vocabulary()
            counted = [TermCounts.of_tokens(self.tokenizer(d), vocab) for d in docs]
        self._fit(list(ids), counted, vocab)

    def _fit(self, ids: list[str], counted: Sequence[TermCounts], vocab: Vocabulary) -> None:
        self._ids, self._vocab = ids, vocab
        st = Stacked.of(list(counted))
        lengths = st.lengths
        self.lengths = lengths
        p = st.index()
        self._docs, self._tfs, self._bounds = p.docs, p.tfs.astype(np.float32), p.bounds
        self._rows = {vocab.terms[t]: i for i, t in enumerate(p.terms.tolist())}
        self._df = np.diff(p.bounds)
        self.doc_count = int(np.count_nonzero(lengths))  # documents with the field (a token)
        total = int(lengths.sum())
        self.avgdl = np.float32(total / self.doc_count) if total > 0 else np.float32(1.0)
        self.norms = np.fromiter((encode_norm(int(n)) for n in lengths), dtype=np.uint8, count=len(lengths))
        k1, b = np.float32(self.k1), np.float32(self.b)
        self._cache = (k1 * ((np.float32(1) - b) + b * NORM_TABLE / self.avgdl)).astype(np.float32)
        self._doc_cache = self._cache[self.norms]
        self._idf: dict[str, np.float32] = {}

    # --- query -------------------------------------------------------------------------------------------
    def clauses(self, query: str) -> list[str] | None:
        """The query's terms as Lucene's parser makes clauses of them (repeats kept, in order); None when
        it has more top-level clauses than ``max_clauses`` (Lucene: a ParseException, no results)."""
        if self.max_query_words:
            query = first_words(query, self.max_query_words)
        analyze = self.query_tokenizer or self.tokenizer
        terms = analyze(query)
        if self.max_clauses and len(terms) > self.max_clauses:
            # one clause per whitespace-separated word that leaves a token (several tokens: a nested query)
            if sum(1 for w in query.split() if analyze(w)) > self.max_clauses:
                return None
        return terms

    def idf(self, term: str) -> np.float32:
        got = self._idf.get(term)
        if got is None:
            n = int(self._df[self._rows[term]])
            got = self._idf[term] = np.float32(math.log(1 + (self.doc_count - n + 0.5) / (n + 0.5)))
        return got

    def scores(self, terms: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(documents matching a term, ascending; their float32 scores)."""
        total = np.zeros(len(self._ids), dtype=np.float64)
        hit = np.zeros(len(self._ids), dtype=bool)
        k1p1 = np.float32(np.float32(self.k1) + np.float32(1))  # (k1 + 1) in float
        for t in terms:
            row = self._rows.get(t)
            if row is None:
                continue
            a, z = self._bounds[row], self._bounds[row + 1]
            docs, tf = self._docs[a:z], self._tfs[a:z]
            weight = np.float32(self.idf(t) * np.float32(1.0)) * k1p1  # idf * boost, then * (k1 + 1)
            part = (np.float32(weight) * tf) / (tf + self._doc_cache[docs])  # float32 throughout
            total[docs] += part.astype(np.float64)
            hit[docs] = True
        matched = np.flatnonzero(hit)
        return matched, total[matched].astype(np.float32)

    def rank(self, query: str, k: int | None = None) -> list[tuple[int, float]]:
        """(document position, score) best first, ties in document order, as Lucene's ``TopDocs``."""
        terms = self.clauses(query)
        if not terms or not self._ids:
            return []
        matched, scores = self.scores(terms)
        order = np.lexsort((matched, -scores.astype(np.float64)))
        if k is not None:
            order = order[:k]
        return [(int(matched[i]), float(scores[i])) for i in order]

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        out: list[list[Hit]] = []
        full = np.zeros(len(self._ids), dtype=np.float64)
        for q in queries:
            terms = self.clauses(q)
            if not terms or not self._ids:
                out.append([])
                continue
            matched, scores = self.scores(terms)
            full[matched] = scores
            out.append(top_k(self._ids, full, k, matched))
            full[matched] = 0.0
        return out

    # --- persistence -------------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        docs: list[list] = [[] for _ in self._ids]
        names = {i: t for t, i in self._rows.items()}
        for row in range(len(self._bounds) - 1):
            a, z = self._bounds[row], self._bounds[row + 1]
            for d, f in zip(self._docs[a:z].tolist(), self._tfs[a:z].tolist()):
                docs[d].append((names[row], int(f)))
        (path / "lucene6.json").write_text(json.dumps({"ids": self._ids, "lengths": self.lengths.tolist(),
                                                       "docs": [dict(d) for d in docs]}))

    def load(self, path: Path) -> None:
        data = json.loads((path / "lucene6.json").read_text())
        vocab = Vocabulary()
        counted = [TermCounts.of(n, freqs, vocab) for n, freqs in zip(data["lengths"], data["docs"])]
        self._fit(data["ids"], counted, vocab)
