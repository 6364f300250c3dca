"""Tokenizers for lexical indexes: a code-aware one and a plain one."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from retrievers.sparse.base import Tokenizer
from retrievers.identity.declare import declare

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
MAX_WORDS = 2_000_000  # distinct words remembered by a CodeTokenizer before it starts afresh


@declare("retrievers.tokenize.CodeTokenizer")
@dataclass(frozen=True)
class CodeTokenizer(Tokenizer):
    """Split on non-alphanumerics, then camelCase and snake_case parts; lowercase.

    ``keep_compound`` also keeps the whole identifier (``parseJSON`` -> parse, json, parsejson),
    so exact identifier queries still match strongly.
    """

    split_identifiers: bool = True
    keep_compound: bool = True
    min_len: int = 1
    # word -> its tokens: code repeats its identifiers, so each distinct word is split once
    _words: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def _table(self) -> dict:
        """word -> its tokens, started afresh past ``MAX_WORDS`` words."""
        if len(self._words) > MAX_WORDS:
            self._words.clear()
        return self._words

    def __call__(self, text: str) -> list[str]:
        words = self._table()
        out: list[str] = []
        for word in _WORD.findall(text):
            got = words.get(word)
            if got is None:
                got = words[word] = self._split(word)
            out.extend(got)
        return out

    def counts(self, text: str) -> tuple[int, dict[str, int]]:
        """(number of tokens, each token's frequency) of ``text``, equal to counting ``self(text)``, but
        split and counted per distinct word: a file repeats its identifiers, so this is several times
        cheaper than walking every token."""
        words = self._table()
        n, freqs = 0, {}
        for word, c in Counter(_WORD.findall(text)).items():
            got = words.get(word)
            if got is None:
                got = words[word] = self._split(word)
            n += c * len(got)
            for t in got:
                freqs[t] = freqs.get(t, 0) + c
        return n, freqs

    def _split(self, word: str) -> tuple[str, ...]:
        parts = _CAMEL.findall(word) if self.split_identifiers else [word]
        lowered = [p.lower() for p in parts]
        if self.split_identifiers and self.keep_compound and len(parts) > 1:
            lowered.append(word.lower())
        return tuple(t for t in lowered if len(t) >= self.min_len)


@declare("retrievers.tokenize.WhitespaceTokenizer")
@dataclass(frozen=True)
class WhitespaceTokenizer(Tokenizer):
    """Lucene's WhitespaceAnalyzer (Pyserini's ``JWhiteSpaceAnalyzer``): runs of non-whitespace,
    case kept, a token longer than ``max_token_len`` cut into pieces of that length."""

    max_token_len: int = 255

    def __call__(self, text: str) -> list[str]:
        n = self.max_token_len
        return [w[i:i + n] for w in text.split() for i in range(0, len(w), n)]


# GPT-2's pre-tokenizer (what tiktoken's r50k/p50k encodings split on before byte-pair merges), with
# \p{L} and \p{N} spelled in Python's re: letters, digits, other symbols, each with its leading space
_GPT2 = re.compile(r"""'(?:s|t|re|ve|m|ll|d)| ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+""")


@declare("retrievers.tokenize.GPT2PreTokenizer")
@dataclass(frozen=True)
class GPT2PreTokenizer(Tokenizer):
    """GPT-2's pre-tokenization, case kept. RepoCoder compares p50k_base token ids, whose BPE files
    tiktoken downloads at run time (unreachable offline): these are the pieces BPE starts from,
    before long words are split into sub-words."""

    def __call__(self, text: str) -> list[str]:
        return _GPT2.findall(text)
