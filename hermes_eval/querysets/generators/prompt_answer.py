"""Whether a RepoEval-style task's answer is already visible in its prompt, and why.

``symbols_in_prompt``: every gold symbol is already used (called or referenced, resolved as the
gold is) on the prompt's fully visible lines. ``line_repeated``: a hole line longer than
``min_chars`` characters (stripped) repeats a prompt line verbatim. The first reason wins.
"""
from __future__ import annotations

from typing import Sequence

from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.python.resolve import used_definitions

SYMBOLS_IN_PROMPT = "symbols_in_prompt"
LINE_REPEATED = "line_repeated"


def first_full_line(prompt: str, lines: Sequence[str], first: int) -> int:
    """The first file line the prompt shows whole (a character-cut prompt may start mid-line)."""
    head = prompt.split("\n", 1)[0]
    return first if 1 <= first <= len(lines) and head == lines[first - 1] else first + 1


def symbols_in_prompt(index: ModuleIndex, path: str, symbols: Sequence[str], start: int, end: int) -> bool:
    """Whether every ``path:qualname`` in ``symbols`` is used on lines ``start``..``end`` of ``path``."""
    if not symbols or end < start:
        return False
    used = {f"{d.path}:{d.qualname}" for d in used_definitions(index, path, start, end)}
    return set(symbols) <= used


def line_repeated(prompt: str, target: str, min_chars: int) -> bool:
    """Whether a line of ``target`` longer than ``min_chars`` (stripped) is also a line of ``prompt``."""
    shown = {line.strip() for line in prompt.split("\n")}
    return any(len(line.strip()) > min_chars and line.strip() in shown for line in target.split("\n"))


def answer_in_prompt(index: ModuleIndex, path: str, symbols: Sequence[str], prompt: str, lines: Sequence[str],
                     first: int, hole_start: int, target: str, min_chars: int) -> str | None:
    """The reason the answer is in the prompt, or None."""
    if symbols_in_prompt(index, path, symbols, first_full_line(prompt, lines, first), hole_start - 1):
        return SYMBOLS_IN_PROMPT
    if line_repeated(prompt, target, min_chars):
        return LINE_REPEATED
    return None
