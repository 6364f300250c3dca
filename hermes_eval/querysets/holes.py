"""A completion hole in any language (the lines to complete) and the left context a query takes
from the lines before it; the finders are per language family (``python/holes.py``,
``treesitter/holes.py``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hole:
    """Lines ``start``..``end`` (1-based, inclusive) of ``path`` to be completed."""

    path: str
    repo: str
    level: str
    start: int
    end: int


@dataclass(frozen=True)
class HoleRules:
    """What counts as a hole at each level."""

    min_target_chars: int = 10
    max_hole_lines: int = 8
    min_body_lines: int = 3
    max_body_lines: int = 60


def left_context(lines: list[str], start: int, max_lines: int | None,
                 max_chars: int | None) -> tuple[str, int]:
    """(text, first line) of what precedes line ``start``: the last ``max_lines`` lines, then at
    most the last ``max_chars`` characters of those."""
    first = 1 if max_lines is None else max(1, start - max_lines)
    text = "\n".join(lines[first - 1:start - 1])
    if max_chars is not None and len(text) > max_chars:
        text = text[-max_chars:]
        first = start - 1 - text.count("\n")
    return text, first
