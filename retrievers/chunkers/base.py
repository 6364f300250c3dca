"""The chunker protocol and helpers shared by every strategy."""
from __future__ import annotations

from typing import Iterable, Protocol, runtime_checkable

from retrievers.chunk import Chunk


@runtime_checkable
class Chunker(Protocol):
    """Split one file into chunks that together cover every line."""

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]: ...


def chunk_files(chunker: Chunker, files: Iterable[tuple[str, str, str]]) -> list[Chunk]:
    """Chunk (path, text, language) triples; result is sorted and de-duplicated by id."""
    seen: dict[str, Chunk] = {}
    for path, text, language in files:
        for c in chunker.chunk(path, text, language):
            if c.text.strip():
                seen.setdefault(c.id, c)
    return sorted(seen.values(), key=lambda c: (c.path, c.start, c.end))


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` without their terminators (a trailing newline adds no line)."""
    return text.splitlines()


def make_chunk(path: str, lines: list[str], start: int, end: int, language: str,
               symbol: str | None = None, **meta) -> Chunk:
    """Build a chunk from 1-based inclusive line numbers of ``lines``."""
    return Chunk(path=path, start=start, end=end, text="\n".join(lines[start - 1:end]),
                 language=language, symbol=symbol, meta=meta)


def windows(n_lines: int, size: int, overlap: int, first: int = 1) -> list[tuple[int, int]]:
    """1-based inclusive (start, end) windows of ``size`` lines stepping ``size - overlap``."""
    if size <= 0:
        raise ValueError(f"window size must be > 0, got {size}")
    if not 0 <= overlap < size:
        raise ValueError(f"overlap must be in [0, size), got {overlap} for size {size}")
    last = first + n_lines - 1
    out: list[tuple[int, int]] = []
    start = first
    while start <= last:
        end = min(start + size - 1, last)
        out.append((start, end))
        if end == last:
            break
        start += size - overlap
    return out
