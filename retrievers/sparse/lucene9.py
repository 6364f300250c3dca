"""Lucene 8 and 9's ``BM25Similarity`` (what Pyserini and Anserini run) over one field, exactly."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from retrievers.identity.declare import declare
from retrievers.sparse.lucene6 import Lucene6BM25Index
from retrievers.sparse.lucene_norms import LENGTH_TABLE, int_to_byte4
from retrievers.sparse.lucene_query_words import first_words
from retrievers.sparse.term_counts import Vocabulary


@declare("retrievers.sparse.lucene.Lucene9BM25Index")
@dataclass
class Lucene9BM25Index(Lucene6BM25Index):
    """Lucene 8/9's ``BM25Similarity`` (Pyserini's ``LuceneSearcher``; its defaults k1 0.9, b 0.4) over one
    field, as Anserini's bag-of-words query asks it.

    - A document's length is stored as ``SmallFloat.intToByte4(length)`` and read back through
      ``LENGTH_TABLE`` (exact below 24 tokens, then 4 significant bits); ``impact_norms`` is an index
      built with Anserini's ``-impact`` switch: its ``ImpactSimilarity.computeNorm`` stores 1 for every
      document, so BM25 then sees every length as 1 against the true average length (no length
      normalization, every tf saturated by the same constant).
    - Per term ``weight - weight / (1 + tf * cache[norm])`` in float, ``weight = boost * idf``,
      ``cache[n] = 1 / (k1 * (1 - b + b * LENGTH_TABLE[n] / avgdl))``: no (k1 + 1) factor since Lucene 8;
      the clauses summed in double and cast to float.
    - ``BagOfWordsQueryGenerator``: one clause per distinct query term, boosted by its count; more than
      ``max_clauses`` distinct terms is ``TooManyClauses`` (no results).
    - ``allowed`` (in :meth:`scores`) restricts the collection: documents outside it neither match nor count
      in docCount, docFreq or the average length (an index built over those documents only)."""

    k1: float = 0.9
    b: float = 0.4
    impact_norms: bool = False

    def _fit(self, ids: list[str], counted, vocab: Vocabulary) -> None:
        super()._fit(ids, counted, vocab)
        lengths = self.lengths
        self.norms = (np.ones(len(lengths), dtype=np.uint8) if self.impact_norms else
                      np.fromiter((int_to_byte4(int(n)) for n in lengths), dtype=np.uint8, count=len(lengths)))
        self._has_field = lengths > 0
        self._set_stats(self.doc_count, int(lengths.sum()))

    def _set_stats(self, doc_count: int, total: int) -> None:
        self.avgdl = np.float32(total / doc_count) if doc_count and total > 0 else np.float32(1.0)
        k1, b = np.float32(self.k1), np.float32(self.b)
        self._cache = (np.float32(1) / (k1 * ((np.float32(1) - b) + b * LENGTH_TABLE / self.avgdl))).astype(np.float32)
        self._doc_cache = self._cache[self.norms]

    def clauses(self, query: str) -> list[str] | None:
        analyze = self.query_tokenizer or self.tokenizer
        terms = analyze(first_words(query, self.max_query_words) if self.max_query_words else query)
        if self.max_clauses and len(set(terms)) > self.max_clauses:
            return None
        return terms

    def scores(self, terms: Sequence[str], allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(documents matching a term, ascending; their float32 scores), within ``allowed`` when given."""
        if allowed is not None:
            keep = allowed & self._has_field
            saved = (self.doc_count, self.avgdl, self._cache, self._doc_cache)
            self.doc_count = int(keep.sum())
            self._set_stats(self.doc_count, int(self.lengths[keep].sum()))
        try:
            return self._scores(terms, allowed)
        finally:
            if allowed is not None:
                self.doc_count, self.avgdl, self._cache, self._doc_cache = saved

    def _scores(self, terms: Sequence[str], allowed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        total = np.zeros(len(self._ids), dtype=np.float64)
        hit = np.zeros(len(self._ids), dtype=bool)
        counts: dict[str, int] = {}
        for t in terms:
            counts[t] = counts.get(t, 0) + 1
        for t, boost in counts.items():
            row = self._rows.get(t)
            if row is None:
                continue
            a, z = self._bounds[row], self._bounds[row + 1]
            docs, tf = self._docs[a:z], self._tfs[a:z]
            if allowed is not None:
                inside = allowed[docs]
                docs, tf = docs[inside], tf[inside]
                n = len(docs)
                if n == 0:
                    continue
                idf = np.float32(math.log(1 + (self.doc_count - n + 0.5) / (n + 0.5)))
            else:
                idf = self.idf(t)
            weight = np.float32(np.float32(boost) * idf)
            part = weight - weight / (np.float32(1) + tf * self._doc_cache[docs])  # float32 throughout
            total[docs] += part.astype(np.float64)
            hit[docs] = True
        matched = np.flatnonzero(hit)
        return matched, total[matched].astype(np.float32)
