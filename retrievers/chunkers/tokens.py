"""A cheap, deterministic token count shared by size caps and token budgets.

A token is a run of letters, a run of digits, or one other non-space character, so
``self.max_chars = 1500`` is 7 tokens. It never spans a newline, which makes the count of a
text the sum of its lines' counts. On Python it lands within ~15% of BPE tokenizers used by
LLMs (it does not split long identifiers, BPE does not split some operators); it needs no
vocabulary, so every chunker and every budget counts the same way, offline.
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
