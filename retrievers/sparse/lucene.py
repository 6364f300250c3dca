"""Lucene 6's default search without Java: ``StandardAnalyzer`` and ``BM25Similarity`` as Lucene 6.2.0
computes them, float for float (what an index built by ``IndexWriter`` with ``new StandardAnalyzer()``
and searched through the classic ``QueryParser`` ranks; the BLIZZARD baseline is one).

- :class:`StandardAnalyzer`: ``StandardTokenizer`` (Unicode UAX#29 word boundaries) + ``LowerCaseFilter``
  + ``StopFilter`` with ``StopAnalyzer.ENGLISH_STOP_WORDS_SET`` (33 words). The tokenizer is a regular
  expression over the Unicode ``Word_Break`` property (the ``regex`` package's Unicode, not Lucene 6's
  6.3): letters, digits and ``_`` join; ``.``/``'``/``:`` and the other MidLetter/MidNumLet marks join two
  letters, ``,``/``.``/``;`` two digits; Han and Hiragana are one token per character, Thai-like scripts
  one token per run; tokens longer than 255 characters are cut into 255-character pieces (Lucene 6.2 does;
  Lucene 7 too). Not modelled: the Hebrew double-quote rules (WB7b/c), Katakana next to letters, and
  Extend/Format marks before a joining mark (``a\\u0301.b``); Java's ``Character.toLowerCase`` is copied
  for the one character where Python's ``str.lower`` differs (U+0130).
- Norms: a document's length is stored in one byte, ``SmallFloat.floatToByte315(1 / sqrt(length))``,
  and read back through ``BM25Similarity``'s table ``1 / byte315ToFloat(b)^2``, so lengths are
  quantized (about 12% steps) and documents of nearby lengths score alike: :func:`encode_norm`,
  :data:`NORM_TABLE`.
- :class:`Lucene6BM25Index`: ``idf = (float) ln(1 + (N - n + 0.5) / (n + 0.5))`` over the documents that
  have a token, ``avgdl = (float) (sumTotalTermFreq / docCount)``, per term
  ``idf * (k1 + 1) * tf / (tf + k1 * (1 - b + b * NORM_TABLE[norm] / avgdl))`` in float, the clauses
  summed in double and cast to float (``BooleanScorer``). The classic ``QueryParser`` with its default
  OR makes every token of the query a SHOULD clause, repeats included, so a word that occurs twice
  counts twice; more than ``max_clauses`` (``BooleanQuery.maxClauseCount``, 1024) top-level clauses
  is a ParseException, which callers like BLIZZARD's swallow: no results. Ties rank in document order
  (Lucene's doc ids) in :meth:`Lucene6BM25Index.rank`, by id in :meth:`~Lucene6BM25Index.search`, as
  every index here does.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.identity.declare import declare
from retrievers.index import Hit, check_k, top_k
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.term_counts import Stacked, TermCounts, Vocabulary

# StopAnalyzer.ENGLISH_STOP_WORDS_SET (Lucene 6.x), the StandardAnalyzer() default
ENGLISH_STOP_WORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
    "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
    "will", "with"))
MAX_TOKEN_LENGTH = 255  # StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH
MAX_CLAUSES = 1024  # BooleanQuery.getMaxClauseCount() default

_TOKEN = None


def _token_pattern():
    """The StandardTokenizer approximation (compiled once; needs the ``regex`` package)."""
    global _TOKEN
    if _TOKEN is None:
        import regex

        letter = r"\p{WB=ALetter}\p{WB=Hebrew_Letter}"
        num, ext = r"\p{WB=Numeric}", r"\p{WB=ExtendNumLet}"
        keep = r"\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}"  # WB4: ignored inside a word
        unit = f"[{letter}{num}{ext}][{keep}]*"
        mid_letter = r"[\p{WB=MidLetter}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
        mid_num = r"[\p{WB=MidNum}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
        word = (f"(?:{unit})+(?:(?<=[{letter}][{keep}]*){mid_letter}[{keep}]*(?=[{letter}])(?:{unit})+"
                f"|(?<=[{num}][{keep}]*){mid_num}[{keep}]*(?=[{num}])(?:{unit})+)*")
        katakana = rf"(?:\p{{WB=Katakana}}[{keep}]*)+"
        southeast = rf"(?:\p{{Line_Break=SA}}[{keep}]*)+"  # Thai, Lao, Myanmar, Khmer: one run, no dictionary
        single = r"[\p{Script=Han}\p{Script=Hiragana}]"  # ideographs and hiragana: one token each
        _TOKEN = regex.compile(f"{southeast}|{katakana}|{single}|{word}", regex.V1)
    return _TOKEN


_ONLY_CONNECTORS = re.compile(r"^[_\u203f\u2040\u2054\ufe33\ufe34\ufe4d-\ufe4f\uff3f\u202f]+$")


def java_lower(text: str) -> str:
    """``String.toLowerCase`` as ``LowerCaseFilter`` applies it (``Character.toLowerCase`` per code point):
    Python's ``str.lower`` except that U+0130 becomes a plain ``i``, not ``i`` + combining dot."""
    return text.lower() if "\u0130" not in text else "".join("i" if c == "\u0130" else c.lower() for c in text)


def standard_tokens(text: str, max_token_length: int = MAX_TOKEN_LENGTH) -> list[str]:
    """StandardTokenizer's tokens of ``text``, case kept (tokens longer than ``max_token_length`` cut)."""
    out: list[str] = []
    for m in _token_pattern().finditer(text):
        tok = m.group()
        if _ONLY_CONNECTORS.match(tok):  # `_` alone is no word (StandardTokenizer emits letters or numbers)
            continue
        if len(tok) <= max_token_length:
            out.append(tok)
        else:
            out.extend(tok[i:i + max_token_length] for i in range(0, len(tok), max_token_length))
    return out


@declare("retrievers.sparse.lucene.StandardAnalyzer")
@dataclass(frozen=True)
class StandardAnalyzer(Tokenizer):
    """Lucene 6's ``new StandardAnalyzer()``: StandardTokenizer, lowercase, the 33 English stop words
    (``stopwords=False``: none, as ``new StandardAnalyzer(CharArraySet.EMPTY_SET)``)."""

    stopwords: bool = True
    max_token_length: int = MAX_TOKEN_LENGTH

    def __call__(self, text: str) -> list[str]:
        toks = [java_lower(t) for t in standard_tokens(text, self.max_token_length)]
        return [t for t in toks if t not in ENGLISH_STOP_WORDS] if self.stopwords else toks


# --- SmallFloat (org.apache.lucene.util.SmallFloat), the 3-bit-mantissa, zero-exponent-15 byte ------------

def float_to_byte315(f: float) -> int:
    """``SmallFloat.floatToByte315(f)`` as an unsigned byte (0..255)."""
    bits = int(np.array(f, dtype=np.float32).view(np.int32))
    small = bits >> (24 - 3)  # arithmetic shift, as Java's >>
    if small <= (63 - 15) << 3:
        return 0 if bits <= 0 else 1
    if small >= ((63 - 15) << 3) + 0x100:
        return 255
    return small - ((63 - 15) << 3)


def byte315_to_float(b: int) -> float:
    """``SmallFloat.byte315ToFloat(b)`` for an unsigned byte ``b``."""
    if b & 0xFF == 0:
        return 0.0
    bits = ((b & 0xFF) << (24 - 3)) + ((63 - 15) << 24)
    return float(np.array(bits, dtype=np.int32).view(np.float32))


def encode_norm(length: int) -> int:
    """``BM25Similarity.encodeNormValue(1f, length)``: ``floatToByte315(1f / (float) Math.sqrt(length))``."""
    root = np.float32(math.sqrt(length))
    with np.errstate(divide="ignore"):
        return float_to_byte315(np.float32(1.0) / root)


def _norm_table() -> np.ndarray:
    """``BM25Similarity.NORM_TABLE``: the document length each norm byte stands for."""
    table = np.zeros(256, dtype=np.float32)
    for i in range(1, 256):
        f = np.float32(byte315_to_float(i))
        table[i] = np.float32(1.0) / (f * f)
    table[0] = np.float32(1.0) / table[255]
    return table


NORM_TABLE = _norm_table()


def decoded_length(length: int) -> float:
    """The length BM25 sees for a document of ``length`` tokens (``NORM_TABLE[encode_norm(length)]``)."""
    return float(NORM_TABLE[encode_norm(length)])


# --- the first words of a query, as BLIZZARD's normalizeSimple1024 keeps them -----------------------------
_JAVA_WORD_SPLIT = re.compile(r"[!-/:-@\[-`{-~]+|[ \t\n\x0b\f\r]+")


def first_words(text: str, n: int) -> str:
    """``text`` cut to its first ``n`` words as ``text.split("\\\\p{Punct}+|\\\\s+")`` counts them (a leading
    separator makes an empty first word, as Java's split does), joined by spaces."""
    words = _JAVA_WORD_SPLIT.split(text)
    while words and words[-1] == "":  # Java drops trailing empty strings
        words.pop()
    return text if len(words) <= n else " ".join(words[:n])


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


# --- Lucene 8 and 9 (what Pyserini/Anserini run) -------------------------------------------------------------

def _long_to_int4(i: int) -> int:
    """``SmallFloat.longToInt4``: 4 significant bits, the top one implicit, and a 4-bit shift."""
    bits = i.bit_length()
    if bits < 4:
        return i
    shift = bits - 4
    return ((i >> shift) & 0x07) | ((shift + 1) << 3)


def _int4_to_long(i: int) -> int:
    bits, shift = i & 0x07, (i >> 3) - 1
    return bits if shift == -1 else (bits | 0x08) << shift


_FREE_VALUES = 255 - _long_to_int4(2**31 - 1)  # SmallFloat.NUM_FREE_VALUES: 24


def int_to_byte4(i: int) -> int:
    """``SmallFloat.intToByte4``: how Lucene 8+'s ``BM25Similarity.computeNorm`` stores a length
    (exact below 24, then 4 significant bits)."""
    return i if i < _FREE_VALUES else _FREE_VALUES + _long_to_int4(i - _FREE_VALUES)


def byte4_to_int(b: int) -> int:
    b &= 0xFF
    return b if b < _FREE_VALUES else _FREE_VALUES + _int4_to_long(b - _FREE_VALUES)


LENGTH_TABLE = np.array([byte4_to_int(i) for i in range(256)], dtype=np.float32)  # BM25Similarity's


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
