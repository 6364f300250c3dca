"""A tokenizer that tokenizes each distinct text once: indexes built over many snapshots of one
repository (or re-built after an edit) pay only for the texts that changed."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class MemoTokenizer:
    """``inner`` with its results kept by text; equal tokens are one string in memory (``vocab``), so
    the memo costs a pointer per token. The lists handed out are shared: indexes must not edit them."""

    inner: Callable[[str], list[str]]
    memo: dict[str, list[str]] = field(default_factory=dict)
    vocab: dict[str, str] = field(default_factory=dict)
    counted: dict[str, tuple[int, dict[str, int]]] = field(default_factory=dict)
    computed: int = 0  # distinct texts tokenized
    reused: int = 0  # calls answered from the memo

    def __call__(self, text: str) -> list[str]:
        got = self.memo.get(text)
        if got is None:
            vocab = self.vocab
            got = self.memo[text] = [vocab.setdefault(t, t) for t in self.inner(text)]
            self.computed += 1
        else:
            self.reused += 1
        return got

    def retain(self, texts) -> None:
        """Forget every text not in ``texts`` (the snapshot just built): the next snapshot of a repository
        shares most of them, so memory stays that of one snapshot, not of all the texts ever seen."""
        keep = set(texts)
        self.memo = {t: v for t, v in self.memo.items() if t in keep}
        self.counted = {t: v for t, v in self.counted.items() if t in keep}

    def counts(self, text: str) -> tuple[int, dict[str, int]]:
        """(number of tokens, each token's frequency) of ``text``, kept by text instead of the tokens
        (an index that scores from frequencies, as rank-bm25 does, asks this and never the list)."""
        got = self.counted.get(text)
        if got is None:
            count = getattr(self.inner, "counts", None)
            if count is not None:
                n, raw = count(text)
            else:
                tokens = self.inner(text)
                n, raw = len(tokens), Counter(tokens)
            vocab = self.vocab
            got = self.counted[text] = (n, {vocab.setdefault(t, t): c for t, c in raw.items()})
            self.computed += 1
        else:
            self.reused += 1
        return got


def memoize_tokenizers(legs: dict, memos: dict[str, MemoTokenizer]) -> None:
    """Give every leg that tokenizes text the memo it had before (by leg name), creating it on first use."""
    for name, ix in legs.items():
        inner = getattr(ix, "tokenizer", None)
        if not callable(inner) or getattr(ix, "input", "text") != "text":
            continue
        if name not in memos:
            memos[name] = MemoTokenizer(inner)
        ix.tokenizer = memos[name]
