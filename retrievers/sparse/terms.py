"""Turning free text into a safe OR-of-terms query for engines with their own query syntax."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

_UNICODE_WORD = re.compile(r"[^\W_]+")


def unicode_words(text: str) -> list[str]:
    """Runs of Unicode letters and digits: the tokens unicode61 and tantivy's default split into."""
    return _UNICODE_WORD.findall(text)


def unique(tokens: list[str]) -> list[str]:
    """Tokens in first-seen order without repeats."""
    return list(dict.fromkeys(tokens))


@dataclass(frozen=True)
class QuotedOr:
    """Every term double-quoted (quotes inside doubled) and joined with ``OR``: no operator,
    column filter, prefix or NEAR syntax in the user's text survives as syntax."""

    terms: Callable[[str], list[str]] = unicode_words

    def __call__(self, text: str) -> str:
        toks = unique([t for t in self.terms(text) if t])
        return " OR ".join('"' + t.replace('"', '""') + '"' for t in toks)
