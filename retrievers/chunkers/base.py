"""The chunker protocol and the helpers every strategy shares.

Contract every chunker keeps (property-tested in tests/retrievers/chunkers/):

- **coverage over non-blank lines**: every line holding a non-whitespace character lies in at
  least one chunk. Runs of blank lines may be dropped (nobody retrieves them, and gold spans
  are judged by the chunks that overlap them, so a dropped blank line costs no metric);
- spans lie in the file (``1 <= start <= end <= n_lines``) and ``chunk.text`` is exactly the
  file's lines ``start..end`` joined by ``\\n``, so ids (``path:start-end``) are stable;
- no chunk is whitespace-only, and the output is deterministic (sorted by start, end).

A chunker that picks its documents on purpose (``selective = True``: functions only, as SWE-bench
localization papers index them) keeps every rule but coverage; gold on lines no chunk holds is
then unanswerable at chunk level, and the run's hygiene counts it.

Lines are split on ``\\n`` only, as ``ast``, tree-sitter and the corpus scanner count them
(``str.splitlines`` also breaks at form feeds and U+2028 and would shift every later line).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Protocol, Sequence, runtime_checkable

from retrievers.chunk import Chunk
from retrievers.progress import track


@runtime_checkable
class Chunker(Protocol):
    """Split one file into chunks that together cover every non-blank line.

    A chunker subclasses this protocol and so starts from its capabilities' defaults:

    - ``selective`` (False: it covers every non-blank line; True when it picks its documents);
    - ``fallback`` (None: it cuts every file itself; else the chunker that cuts what it does not
      parse, which ``chunks.fallback`` in a run's record names per language);
    - ``merge(chunks)``: its corpus-level pass over one repository's chunks (centred windows keep
      identical texts once); by default the chunks unchanged.
    """

    selective: ClassVar[bool] = False
    fallback: Chunker | None = None

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]: ...

    def merge(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        return list(chunks)


def merged(chunker: Chunker, chunks: Iterable[Chunk]) -> list[Chunk]:
    """A chunker's corpus-level pass (:meth:`Chunker.merge`) over one repository's chunks."""
    return list(chunker.merge(list(chunks)))


@runtime_checkable
class RangeSplitter(Protocol):
    """Split lines ``first..last`` (1-based, inclusive) of a file into pieces."""

    def split(self, lines: list[str], first: int, last: int) -> list["Piece"]: ...


@dataclass(frozen=True)
class Piece:
    """A chunk before it has text: 1-based inclusive lines, a symbol and metadata."""

    start: int
    end: int
    symbol: str | None = None
    meta: dict = field(default_factory=dict, compare=False, hash=False)


def chunk_files(chunker: Chunker, files: Iterable[tuple[str, str, str]]) -> list[Chunk]:
    """Chunk (path, text, language) triples; result is sorted and de-duplicated by id."""
    seen: dict[str, Chunk] = {}
    files = list(files)
    with track("chunking", len(files), "files") as tracker:
        for path, text, language in files:
            for c in chunker.chunk(path, text, language):
                if c.text.strip():
                    seen.setdefault(c.id, c)
            tracker.update()
    return sorted(merged(chunker, seen.values()), key=lambda c: (c.path, c.start, c.end))


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` split on ``\\n`` only (a trailing newline adds no line)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


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


def is_blank(lines: list[str], start: int, end: int) -> bool:
    """True when lines ``start..end`` hold only whitespace."""
    return not any(line.strip() for line in lines[start - 1:end])


def uncovered_runs(lines: list[str], pieces: Iterable[Piece]) -> list[tuple[int, int]]:
    """Maximal runs of lines no piece covers, trimmed to their first and last non-blank line."""
    covered = [False] * (len(lines) + 2)
    for p in pieces:
        for n in range(max(p.start, 1), min(p.end, len(lines)) + 1):
            covered[n] = True
    runs: list[tuple[int, int]] = []
    n = 1
    while n <= len(lines):
        if covered[n] or not lines[n - 1].strip():
            n += 1
            continue
        end = n
        while end + 1 <= len(lines) and not covered[end + 1]:
            end += 1
        while not lines[end - 1].strip():
            end -= 1
        runs.append((n, end))
        n = end + 1
    return runs


def assemble(path: str, lines: list[str], language: str, pieces: Iterable[Piece],
             filler: RangeSplitter) -> list[Chunk]:
    """Chunks for ``pieces`` plus ``filler`` pieces over every uncovered non-blank run.

    Pieces are clamped to the file, whitespace-only ones dropped, and duplicates of a span keep
    the first piece's symbol; the result is sorted by (start, end).
    """
    kept: list[Piece] = []
    for p in pieces:
        start, end = max(p.start, 1), min(p.end, len(lines))
        if start <= end and not is_blank(lines, start, end):
            kept.append(Piece(start, end, p.symbol, p.meta))
    for a, b in uncovered_runs(lines, kept):
        kept.extend(p for p in filler.split(lines, a, b) if not is_blank(lines, p.start, p.end))
    out: dict[tuple[int, int], Chunk] = {}
    for p in kept:
        out.setdefault((p.start, p.end),
                       make_chunk(path, lines, p.start, p.end, language, p.symbol, **p.meta))
    return [out[k] for k in sorted(out)]


def definition_start(node) -> int:
    """The first line of an ``ast`` definition: its first decorator's, else its ``def``/``class`` line."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", None) or []])


def python_tree(text: str, language: str):
    """The module's ``ast`` when ``language`` is Python and it parses, else None (callers fall back)."""
    if language != "python":
        return None
    import ast

    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None
