"""Documents as counted terms: each distinct term of a text once, with its frequency, as integer ids
into a vocabulary; a corpus of them stacked into flat arrays that numpy turns into postings and
document frequencies without a Python loop per document."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Iterable, Mapping, Sequence

import numpy as np

TERM_DTYPE = np.int32


@dataclass
class Vocabulary:
    """term <-> id, growing as texts are counted; ids are dense from 0."""

    ids: dict[str, int] = field(default_factory=dict)
    terms: list[str] = field(default_factory=list)

    def id_of(self, term: str) -> int:
        got = self.ids.get(term)
        if got is None:
            got = self.ids[term] = len(self.terms)
            self.terms.append(term)
        return got

    def encode(self, terms: Iterable[str]) -> np.ndarray:
        """The ids of ``terms`` (new terms are added), in their order."""
        terms = terms if isinstance(terms, list) else list(terms)
        try:  # the common case, every term known: one C-level pass (tens of millions per SWE-bench arm)
            return np.fromiter(map(self.ids.__getitem__, terms), dtype=TERM_DTYPE, count=len(terms))
        except KeyError:  # new terms get ids in the order met, then the same pass
            ids = self.ids
            for term in [t for t in terms if t not in ids]:
                self.id_of(term)
            return np.fromiter(map(ids.__getitem__, terms), dtype=TERM_DTYPE, count=len(terms))


@dataclass(frozen=True)
class TermCounts:
    """One text: its number of tokens, its distinct terms (vocabulary ids, in the order counted) and
    each one's frequency."""

    length: int
    terms: np.ndarray
    tfs: np.ndarray

    @classmethod
    def of(cls, length: int, freqs: Mapping[str, int], vocab: Vocabulary) -> TermCounts:
        return cls(length, vocab.encode(freqs), np.fromiter(freqs.values(), dtype=TERM_DTYPE, count=len(freqs)))

    @classmethod
    def of_tokens(cls, tokens: Sequence[str], vocab: Vocabulary) -> TermCounts:
        return cls.of(len(tokens), Counter(tokens), vocab)

    @classmethod
    def from_stored(cls, row: tuple[int, list[str], bytes], vocab: Vocabulary) -> TermCounts:
        """From ``to_stored``'s row, with ids in ``vocab``."""
        length, terms, tfs = row
        return cls(length, vocab.encode(terms), np.frombuffer(tfs, dtype=TERM_DTYPE))

    def to_stored(self, vocab: Vocabulary) -> tuple[int, list[str], bytes]:
        """(tokens, the terms as strings, the frequencies as bytes): what a store keeps, free of ``vocab``."""
        return self.length, [vocab.terms[t] for t in self.terms.tolist()], self.tfs.astype(TERM_DTYPE).tobytes()

    def as_dict(self, vocab: Vocabulary) -> dict[str, int]:
        return {vocab.terms[t]: int(f) for t, f in zip(self.terms.tolist(), self.tfs.tolist())}


@dataclass(frozen=True)
class Stacked:
    """A corpus of counted texts as parallel arrays: one entry per (document, distinct term), documents
    in order, each document's terms in the order counted."""

    lengths: np.ndarray  # int64, tokens per document
    doc: np.ndarray  # int64 document row of each entry (non-decreasing)
    term: np.ndarray  # vocabulary id of each entry
    tf: np.ndarray  # frequency of each entry

    @classmethod
    def of(cls, counted: Sequence[TermCounts]) -> Stacked:
        lengths = np.fromiter(map(attrgetter("length"), counted), dtype=np.int64, count=len(counted))
        sizes = np.fromiter((c.terms.size for c in counted), dtype=np.int64, count=len(counted))
        if not counted:
            empty = np.zeros(0, dtype=TERM_DTYPE)
            return cls(lengths, np.zeros(0, dtype=np.int64), empty, empty)
        return cls(lengths, np.repeat(np.arange(len(counted), dtype=np.int64), sizes),
                   np.concatenate([c.terms for c in counted]), np.concatenate([c.tfs for c in counted]))

    def index(self) -> Postings:
        """Postings and document frequencies, from one stable sort of the entries by term."""
        # a stable sort by term, as one sort of unique int64 keys (term, entry): the same order as numpy's
        # stable argsort of the int32 terms (a timsort), 1.8x faster on 1M entries
        n = len(self.term)
        order = np.sort(self.term.astype(np.int64) * max(n, 1) + np.arange(n, dtype=np.int64)) % max(n, 1)
        sorted_terms = self.term[order]
        starts = np.flatnonzero(np.diff(sorted_terms, prepend=-1)) if len(order) else np.zeros(0, np.int64)
        bounds = np.append(starts, len(order))
        # the stable sort keeps each term's entries in document order: its first entry is where it was first met
        first_seen = np.argsort(order[starts])  # distinct values: any sort is stable
        return Postings(sorted_terms[starts], bounds, self.doc[order], self.tf[order], first_seen)


@dataclass(frozen=True)
class Postings:
    """Term ``terms[i]``'s documents (ascending) and frequencies are ``docs[bounds[i]:bounds[i + 1]]``;
    ``first_seen`` lists the positions ``i`` in the order the terms were first met walking the documents
    in order (the order a dict filled document by document keeps)."""

    terms: np.ndarray
    bounds: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    first_seen: np.ndarray

    @property
    def df(self) -> np.ndarray:
        """Each term's document frequency (a term appears once per document)."""
        return np.diff(self.bounds)
