"""Markdown by the workspace spec: split at headings, then paragraphs, then a token cap.

Every ATX (``## Title``) or setext (``Title`` over ``===``/``---``) heading outside a fenced
code block and an HTML comment block (``<!--`` ... ``-->``) starts a section that runs to the next
heading. A section within ``max_tokens`` is one chunk. A bigger one is cut between paragraphs (blank-line separated blocks; a fenced block
is one paragraph), packing whole paragraphs up to the cap; a paragraph over the cap is cut into
line windows of at most ``max_tokens`` that overlap by up to ``overlap_tokens``. Lines can't be
cut, so the spec's sentence step is the line step here. ``Chunk.symbol`` is the heading path
(``Guide > Install > pip``); ``meta`` has the path as a list, the level and the chunk index.
Tokens are counted by ``retrievers.chunkers.tokens``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.tokens import line_tokens
from retrievers.identity.declare import declare

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# an HTML comment block (CommonMark HTML block 2): from a line opening ``<!--`` to the line with ``-->``
_COMMENT_OPEN = re.compile(r"^ {0,3}<!--")


@dataclass(frozen=True)
class Section:
    """Lines ``start..end`` under the heading path ``path`` (empty before the first heading)."""

    start: int
    end: int
    path: tuple[str, ...]
    level: int


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line, level, title) of every heading outside fenced code and HTML comment blocks."""
    out: list[tuple[int, int, str]] = []
    fence: str | None = None
    comment = False
    for i, line in enumerate(lines, start=1):
        if comment or (fence is None and _COMMENT_OPEN.match(line)):
            comment = "-->" not in (line.split("<!--", 1)[1] if not comment else line)
            continue
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            continue
        if fence is not None:
            continue
        atx = _ATX.match(line)
        if atx:
            out.append((i, len(atx.group(1)), (atx.group(2) or "").strip()))
        elif i < len(lines) and line.strip() and _SETEXT.match(lines[i]) and not _SETEXT.match(line):
            out.append((i, 1 if lines[i].strip()[0] == "=" else 2, line.strip()))
    return out


def sections(lines: list[str]) -> list[Section]:
    """The file cut at its headings, each with its heading path, trailing blank lines trimmed."""
    heads = _headings(lines)
    out: list[Section] = []
    if not heads or heads[0][0] > 1:
        out.append(Section(1, (heads[0][0] - 1) if heads else len(lines), (), 0))
    stack: list[tuple[int, str]] = []
    for k, (line, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = heads[k + 1][0] - 1 if k + 1 < len(heads) else len(lines)
        out.append(Section(line, end, tuple(t for _, t in stack), level))
    trimmed = []
    for s in out:
        end = s.end
        while end >= s.start and not lines[end - 1].strip():
            end -= 1
        if end >= s.start:
            trimmed.append(Section(s.start, end, s.path, s.level))
    return trimmed


def paragraphs(lines: list[str], start: int, end: int) -> list[tuple[int, int]]:
    """Blank-line separated blocks of ``start..end``; a fenced code block stays whole."""
    out: list[tuple[int, int]] = []
    n, fence, begin = start, None, None
    while n <= end:
        line = lines[n - 1]
        m = _FENCE.match(line)
        if m and (fence is None or (m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence))):
            fence = m.group(1) if fence is None else None
        if line.strip() or fence is not None:
            begin = n if begin is None else begin
        elif begin is not None:
            out.append((begin, n - 1))
            begin = None
        n += 1
    if begin is not None:
        out.append((begin, end))
    return out


@declare("retrievers.chunkers.markdown.MarkdownChunker")
@dataclass(frozen=True)
class MarkdownChunker(Chunker):
    """Heading sections, packed paragraphs, then token-capped line windows."""

    max_tokens: int = 512
    overlap_tokens: int = 80
    languages: tuple[str, ...] = ("markdown",)
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset(self.languages)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        if language not in self.languages:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        tokens = line_tokens(lines)
        pieces: list[Piece] = []
        for sec in sections(lines):
            for a, b in self._split(lines, tokens, sec):
                meta = {"headings": list(sec.path), "level": sec.level, "chunk_index": len(pieces)}
                pieces.append(Piece(a, b, " > ".join(sec.path) or None, meta))
        return assemble(path, lines, language, pieces, self.fallback)

    def _split(self, lines: list[str], tokens: list[int], sec: Section) -> list[tuple[int, int]]:
        if sum(tokens[sec.start - 1:sec.end]) <= self.max_tokens:
            return [(sec.start, sec.end)]
        paras = paragraphs(lines, sec.start, sec.end)
        out: list[tuple[int, int]] = []
        cur: tuple[int, int] | None = None
        for a, b in paras:
            size = sum(tokens[a - 1:b])
            if size > self.max_tokens:
                if cur:
                    out.append(cur)
                    cur = None
                out.extend(self._windows(tokens, a, b))
            elif cur and sum(tokens[cur[0] - 1:b]) <= self.max_tokens:
                cur = (cur[0], b)
            else:
                if cur:
                    out.append(cur)
                cur = (a, b)
        if cur:
            out.append(cur)
        return out

    def _windows(self, tokens: list[int], first: int, last: int) -> list[tuple[int, int]]:
        """Line windows of at most ``max_tokens`` (a longer line stands alone), overlapping."""
        out: list[tuple[int, int]] = []
        start = first
        while start <= last:
            end, size = start, tokens[start - 1]
            while end < last and size + tokens[end] <= self.max_tokens:
                size += tokens[end]
                end += 1
            out.append((start, end))
            if end >= last:
                break
            back, kept = end + 1, 0
            while back - 1 > start and kept + tokens[back - 2] <= self.overlap_tokens:
                back -= 1
                kept += tokens[back - 1]
            start = back
        return out
