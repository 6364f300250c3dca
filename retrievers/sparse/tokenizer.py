"""Tokenizers for lexical indexes: a code-aware one and a plain one."""
from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@dataclass(frozen=True)
class CodeTokenizer:
    """Split on non-alphanumerics, then camelCase and snake_case parts; lowercase.

    ``keep_compound`` also keeps the whole identifier (``parseJSON`` -> parse, json, parsejson),
    so exact identifier queries still match strongly.
    """

    split_identifiers: bool = True
    keep_compound: bool = True
    min_len: int = 1

    def __call__(self, text: str) -> list[str]:
        out: list[str] = []
        for word in _WORD.findall(text):
            parts = _CAMEL.findall(word) if self.split_identifiers else [word]
            lowered = [p.lower() for p in parts]
            if self.split_identifiers and self.keep_compound and len(parts) > 1:
                lowered.append(word.lower())
            out.extend(t for t in lowered if len(t) >= self.min_len)
        return out


@dataclass(frozen=True)
class SimpleTokenizer:
    """Lowercased alphanumeric runs; identifiers are not split."""

    def __call__(self, text: str) -> list[str]:
        return [w.lower() for w in _WORD.findall(text)]
