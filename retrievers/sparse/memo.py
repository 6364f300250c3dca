"""A tokenizer that tokenizes each distinct text once: indexes built over many snapshots of one
repository (or re-built after an edit) pay only for the texts that changed. With a store, each
text's term counts outlive the process: a re-run counts nothing it counted before."""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from typing import Iterable, Protocol, Sequence

from retrievers.identity.key import identity_from, output_digest
from retrievers.identity.probe_memo import remembered
from retrievers.identity.libraries import library_versions
from retrievers.identity.probe import tokenizer_probe
from retrievers.digest import text_sha
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.term_counts import TermCounts, Vocabulary

Stored = tuple[int, list[str], bytes]  # (tokens, distinct terms in order, their frequencies as int32 bytes)


class TermCountStore(Protocol):
    """Term counts kept by (tokenizer identity, text digest) across processes."""

    def get(self, tokenizer: str, digests: list[str]) -> dict[str, Stored]: ...

    def put(self, tokenizer: str, items: dict[str, Stored]) -> None: ...


@dataclass
class MemoTokenizer(Tokenizer):
    """``inner`` with its results kept by text; equal tokens are one string in memory (``vocab``), so
    the memo costs a pointer per token. The lists handed out are shared: indexes must not edit them."""

    inner: Tokenizer
    store: TermCountStore | None = None
    memo: dict[str, list[str]] = field(default_factory=dict)
    vocab: dict[str, str] = field(default_factory=dict)
    terms: Vocabulary = field(default_factory=Vocabulary)  # the ids of every counted text's terms
    counted: dict[str, TermCounts] = field(default_factory=dict)
    computed: int = 0  # distinct texts tokenized
    reused: int = 0  # calls answered from the memo
    loaded: int = 0  # texts whose counts came from the store
    _key: str | None = field(default=None, repr=False)

    def __call__(self, text: str) -> list[str]:
        got = self.memo.get(text)
        if got is None:
            vocab = self.vocab
            got = self.memo[text] = [vocab.setdefault(t, t) for t in self.inner(text)]
            self.computed += 1
        else:
            self.reused += 1
        return got

    def retain(self, texts: Iterable[str]) -> None:
        """Forget every text not in ``texts`` (the snapshot just built): the next snapshot of a repository
        shares most of them, so memory stays that of one snapshot, not of all the texts ever seen."""
        keep = set(texts)
        self.memo = {t: v for t, v in self.memo.items() if t in keep}
        self.counted = {t: v for t, v in self.counted.items() if t in keep}

    def term_counts(self, texts: Sequence[str]) -> list[TermCounts]:
        """Each text's counts (ids in ``terms``), from the memo, else the store, else counted (and stored)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self.counted))
        self.reused += len(texts) - len(missing)
        if missing:
            self._count(missing)
        counted = self.counted
        return [counted[t] for t in texts]

    def _count(self, texts: list[str]) -> None:
        identity = self._identity()
        digests = {t: text_sha(t) for t in texts} if identity else {}
        found = self.store.get(identity, list(digests.values())) if identity else {}
        fresh: dict[str, Stored] = {}
        for text in texts:
            row = found.get(digests.get(text, ""))
            if row is not None:
                self.counted[text] = TermCounts.from_stored(row, self.terms)
                self.loaded += 1
                continue
            self.counted[text] = got = self._counts_of(text)
            self.computed += 1
            if identity:
                fresh[digests[text]] = got.to_stored(self.terms)
        if fresh:
            self.store.put(identity, fresh)

    def _counts_of(self, text: str) -> TermCounts:
        count = self.inner.counts  # a tokenizer that counts without listing tokens
        if count is not None:
            n, freqs = count(text)
            return TermCounts.of(n, freqs, self.terms)
        return TermCounts.of_tokens(self.inner(text), self.terms)

    def _code(self) -> str:
        """The tokenizer's declared identity, its libraries and the tokens it makes of the probe texts (kept
        between the program's processes when its repr is all its settings: :func:`_settings`)."""
        cls = type(self.inner)
        settings = _settings(self.inner)
        if settings is None:
            probe = output_digest(tokenizer_probe(self.inner))
        else:
            probe = remembered("tokenizer", settings, [cls.__module__],
                               lambda: output_digest(tokenizer_probe(self.inner)))
        return identity_from([cls], probe, library_versions([cls.__module__])).key

    def _identity(self) -> str:
        """What the store keys counts by: the tokenizer's identity (:meth:`_code`) and settings; empty
        (nothing stored) without a store, or for a tokenizer whose settings its repr does not show (not a
        dataclass)."""
        if self._key is None:
            self._key = ("" if self.store is None or not hasattr(self.inner, "__dataclass_fields__") else
                         hashlib.sha256(f"{self._code()}\0{self.inner!r}".encode()).hexdigest()[:24])
        return self._key


def memoize_tokenizers(legs: dict, memos: dict[str, MemoTokenizer], store: TermCountStore | None = None) -> None:
    """Give every leg that tokenizes text the memo it had before (by leg name), creating it on first use
    (over ``store``, when given)."""
    for name, ix in legs.items():
        inner = getattr(ix, "tokenizer", None)
        if not callable(inner) or getattr(ix, "input", "text") != "text":
            continue
        if name not in memos:
            memos[name] = MemoTokenizer(inner, store)
        ix.tokenizer = memos[name]


def _settings(tokenizer: Tokenizer) -> str | None:
    """A dataclass tokenizer's repr when it shows every field that makes two of them differ (a field left out
    of the repr compares equal, a memo of its own); None otherwise: its probe then runs every time."""
    if not dataclasses.is_dataclass(tokenizer) or any(not f.repr and f.compare for f in dataclasses.fields(tokenizer)):
        return None
    return f"{type(tokenizer).__module__}.{repr(tokenizer)}"

