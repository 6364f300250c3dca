"""HERMES' heuristic fallback: line windows under a character cap that prefer to end just
before a structural hint (``def``, ``fn``, ``class``, ``func``, ``impl``, ...), with overlap.

A window grows line by line while it stays within ``max_chars``. If the file goes on, the
window is cut before the last hint line in its second part (``min_fill`` of its lines), moved
up over decorators and comments that belong to that definition; with no hint it ends where the
cap stopped it. The next window starts ``overlap_lines`` earlier, unless that would not reach
past the previous window. A single line longer than the cap is a window of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, split_lines
from retrievers.identity.declare import declare

HINTS = ("def", "fn", "class", "func", "function", "impl", "struct", "interface", "enum", "trait",
         "namespace")
_MODIFIERS = (r"(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|"
              r"abstract|final|async|unsafe|extern|override|virtual|sealed|partial|const|open|data)\s+)*")
_ATTACHED = re.compile(r"^\s*(?:@|#\[|#|//|/\*|\*|\"\"\"|''')")


@lru_cache(maxsize=32)
def _hint_regex(hints: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(re.escape(h) for h in hints)
    return re.compile(rf"^\s*{_MODIFIERS}(?:{words})(?=[\s<(*])\*?\s*(?P<name>[A-Za-z_$][\w$]*)?")


@declare("retrievers.chunkers.heuristic.HeuristicChunker")
@dataclass(frozen=True)
class HeuristicChunker(Chunker):
    """Character-capped line windows that break at structural hints, with overlapping lines."""

    max_chars: int = 1500
    overlap_lines: int = 3
    min_fill: float = 0.5
    hints: tuple[str, ...] = HINTS

    def __post_init__(self) -> None:
        if self.max_chars <= 0 or self.overlap_lines < 0 or not 0.0 <= self.min_fill <= 1.0:
            raise ValueError(f"bad heuristic chunker settings: {self}")
        object.__setattr__(self, "hints", tuple(self.hints))

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        lines = split_lines(text)
        return assemble(path, lines, language, self.split(lines, 1, len(lines)), self)

    def split(self, lines: list[str], first: int, last: int) -> list[Piece]:
        """Windows over lines ``first..last``."""
        regex = _hint_regex(self.hints)
        out: list[Piece] = []
        start, prev_end = first, first - 1
        while start <= last:
            end = self._fill(lines, start, last)
            if end <= prev_end:  # the overlap would not reach new lines: drop it
                start = prev_end + 1
                end = self._fill(lines, start, last)
            if end < last:
                end = self._cut(lines, regex, start, end)
            out.append(Piece(start, end, self._symbol(lines, regex, start, end)))
            if end >= last:
                break
            prev_end = end
            start = max(end + 1 - self.overlap_lines, start + 1)
        return out

    def _fill(self, lines: list[str], start: int, last: int) -> int:
        """The last line of the longest window from ``start`` within ``max_chars`` (at least one)."""
        size, end = len(lines[start - 1]) + 1, start
        while end < last and size + len(lines[end]) + 1 <= self.max_chars:
            size += len(lines[end]) + 1
            end += 1
        return end

    def _cut(self, lines: list[str], regex: re.Pattern[str], start: int, end: int) -> int:
        """``end``, or the line before the last hint in the window's second part."""
        lowest = start + max(1, int((end - start + 1) * self.min_fill))
        for h in range(end + 1, lowest - 1, -1):
            if regex.match(lines[h - 1]):
                while h - 1 > lowest and _ATTACHED.match(lines[h - 2]):
                    h -= 1
                return h - 1
        return end

    @staticmethod
    def _symbol(lines: list[str], regex: re.Pattern[str], start: int, end: int) -> str | None:
        for line in lines[start - 1:end]:
            m = regex.match(line)
            if m and m.group("name"):
                return m.group("name")
        return None
