"""A cheap, deterministic token count shared by size caps and token budgets.

A token is a run of letters, a run of digits, or one other non-space character, so
``self.max_chars = 1500`` is 7 tokens. It never spans a newline, which makes the count of a
text the sum of its lines' counts. It needs no vocabulary, so every chunker and every budget
counts the same way, offline, and it is about 6x faster than a WordPiece tokenizer. Measured
against the MiniLM (WordPiece) tokenizer, which splits long identifiers and non-ASCII text
further, the MiniLM count is 1.14x this one on the default corpus (Python) and 1.28x on the
multilang corpus (JavaScript, markdown, Python); a "1k" budget is ~1.1-1.3k MiniLM tokens.
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]|_")


def count_tokens(text: str) -> int:
    """Number of tokens in ``text``."""
    return sum(1 for _ in _TOKEN.finditer(text))


def line_tokens(lines: list[str]) -> list[int]:
    """Token count of each line."""
    return [count_tokens(line) for line in lines]
