"""Leak detectors for hygiene: long verbatim overlap, lexical containment, query token length."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from retrievers.chunkers.tokens import count_tokens

_WS = re.compile(r"\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")
STOPWORDS = frozenset("a an and are as be by do does for from how in is it of on or the this that to "
                      "what when where which why with work works".split())

TokenCounter = Callable[[str], int]


def normalize(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


def _lines(text: str) -> list[str]:
    return [n for n in (normalize(line) for line in text.split("\n")) if n]


def shares_lines(query: str, gold: str, n: int, min_chars: int) -> bool:
    """Whether ``n`` consecutive non-blank query lines (at least ``min_chars`` long together)
    occur as consecutive non-blank lines of ``gold``."""
    q = _lines(query)
    if len(q) < n:
        return False
    g = _lines(gold)
    grams = {tuple(g[i:i + n]) for i in range(len(g) - n + 1)}
    return any(tuple(q[i:i + n]) in grams and sum(map(len, q[i:i + n])) >= min_chars
               for i in range(len(q) - n + 1))


def shares_run(query: str, gold: str, min_chars: int) -> bool:
    """Whether ``query`` and ``gold`` (whitespace-normalized) share a run of ``min_chars`` chars.

    Any such run contains a whole block q[i:i+b] with i a multiple of b = min_chars // 2, so
    only those blocks are searched, then each hit is extended both ways."""
    q, g = normalize(query), normalize(gold)
    b = max(1, min_chars // 2)
    if len(q) < min_chars or len(g) < min_chars:
        return False
    for i in range(0, len(q) - b + 1, b):
        pos = g.find(q[i:i + b])
        while pos != -1:
            left = 0
            while i - left > 0 and pos - left > 0 and q[i - left - 1] == g[pos - left - 1]:
                left += 1
            right = b
            while i + right < len(q) and pos + right < len(g) and q[i + right] == g[pos + right]:
                right += 1
            if left + right >= min_chars:
                return True
            pos = g.find(q[i:i + b], pos + 1)
    return False


def words(text: str) -> set[str]:
    """Lower-case words of text, identifiers split at ``_`` and camelCase."""
    return {p.lower() for w in _WORD.findall(text) for p in _CAMEL.findall(w)}


def lexically_contained(query: str, gold: str) -> bool:
    """Whether every content word of the query occurs in the gold text (a lexical match by
    construction, e.g. symbol-name queries)."""
    q = {w for w in words(query) if len(w) > 1 and w not in STOPWORDS}
    return bool(q) and q <= words(gold)


def approx_tokens(text: str) -> int:
    """Cheap count of a WordPiece/BPE encoding: the shared token count plus CLS/SEP (long
    random runs counted per character, so a long query is never passed as short)."""
    return count_tokens(text) + 2


# tokens a tokenizer may add to a text beyond one per character: its specials (CLS/SEP, BOS/EOS) and a prefix
# space or metaspace; tests/hermes_eval/judge/test_leaks.py checks the bound on every committed query
ASCII_SLACK = 8


def may_exceed(text: str, limit: int) -> bool:
    """Whether ``text`` can hold more than ``limit`` tokens. An ASCII text cannot hold more than one per character
    plus :data:`ASCII_SLACK`: its normal forms are itself, lower-casing keeps its length, and every WordPiece, BPE
    or Unigram token (an unknown word's too) covers at least one character. Others are counted."""
    return not text.isascii() or len(text) + ASCII_SLACK > limit


class _ModelTokens:
    """The token count of a tokenizer file, loaded at the first text counted: a run whose queries
    :func:`may_exceed` clears never loads it (tokenizers' import and the file's parse, a twentieth of a small
    run)."""

    def __init__(self, path: Path) -> None:
        self.path, self._tok = path, None

    def __call__(self, text: str) -> int:
        if self._tok is None:
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(str(self.path))
            tok.no_truncation()
            tok.no_padding()
            self._tok = tok
        return len(self._tok.encode(text).ids)


def token_counter(model: str | None) -> tuple[TokenCounter, str]:
    """(counter, its name): the embedder's own tokenizer when it is available offline, else
    ``approx_tokens``."""
    if model:
        try:
            from retrievers.embedders.model_source import resolve_model

            path = Path(resolve_model(str(model))) / "tokenizer.json"
            if path.is_file():
                return _ModelTokens(path), f"tokenizer:{model}"
        except Exception:  # noqa: BLE001 - any failure means: use the fallback
            pass
    return approx_tokens, "approx"
