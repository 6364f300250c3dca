"""Keep the corpus's shared boilerplate out of what the embedder reads: a chunker around another one.

A file's opening comment block (``leading_comment``: the Apache licence of 97% of Tomcat's .java files,
cobra's 13-line Apache header, a ``// Code generated ... DO NOT EDIT.`` banner) is *shared* when the same
text (lines compared with trailing spaces dropped) opens more than ``min_files`` files of what one
``merge`` sees: one repository, or one snapshot of a snapshot set. Each chunk holding part of a shared
header records a :class:`retrievers.leg_text.HeaderCut` in ``meta["header_removed"]`` (the lines and
tokens cut), and the legs reading ``drop_for`` (``vector``: the embedder; ``text``: lexical indexes too)
read the chunk without them (:func:`retrievers.leg_text.leg_text`). A header unique to fewer files is kept,
and so is a chunk that is all header (nothing else to read). Chunk ids, lines and texts are the inner
chunker's: gold spans judge the chunks exactly as without this wrapper.
"""
from __future__ import annotations

from dataclasses import dataclass
from hashlib import sha256
from typing import Sequence

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker
from retrievers.chunkers.leading_comment import leading_comment
from retrievers.chunkers.tokens import count_tokens
from retrievers.identity.declare import declare
from retrievers.leg_text import HEADER, HeaderCut

INPUTS = ("text", "vector")
HEAD_LINES = 400  # the most of a file's opening lines read for its header


@declare("retrievers.chunkers.shared_header.SharedHeaderChunker")
@dataclass(frozen=True)
class SharedHeaderChunker(Chunker):
    """``inner``'s chunks, each marked with the shared header lines it holds."""

    inner: Chunker
    min_files: int = 10
    drop_for: tuple[str, ...] = ("vector",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "drop_for", tuple(self.drop_for))
        if self.min_files < 1:
            raise ValueError(f"min_files must be >= 1, got {self.min_files}")
        if not self.drop_for or set(self.drop_for) - set(INPUTS):
            raise ValueError(f"drop_for must name some of {INPUTS}, got {self.drop_for}")

    @property
    def selective(self) -> bool:  # type: ignore[override]
        return self.inner.selective

    @property
    def fallback(self) -> Chunker | None:  # type: ignore[override]
        return self.inner.fallback

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        return self.inner.chunk(path, text, language)

    def merge(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        chunks = list(self.inner.merge(chunks))
        return mark_shared_headers(chunks, self.min_files, self.drop_for)


def file_header(chunks: Sequence[Chunk]) -> tuple[int, int, str] | None:
    """(first line, last line, digest) of the opening comment of the file ``chunks`` (one file's, sorted by
    start) were cut from, read from the chunks' own lines from the first chunk's start on; None when none."""
    first = chunks[0]
    lines = first.text.split("\n")
    covered = first.end
    for c in chunks[1:]:
        if len(lines) >= HEAD_LINES or c.start > covered + 1:
            break
        if c.end > covered:
            lines += c.text.split("\n")[covered + 1 - c.start:]
            covered = c.end
    n = leading_comment(lines[:HEAD_LINES], first.language)
    if n == 0:
        return None
    head = "\n".join(line.rstrip() for line in lines[:n]).strip()
    return first.start, first.start + n - 1, sha256(head.encode("utf-8", "surrogatepass")).hexdigest()


def mark_shared_headers(chunks: Sequence[Chunk], min_files: int, drop_for: tuple[str, ...]) -> list[Chunk]:
    """``chunks`` (any order kept) with a :class:`HeaderCut` on each chunk that starts inside a header more
    than ``min_files`` files open with and goes on past it."""
    by_path: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_path.setdefault(c.path, []).append(c)
    headers = {p: file_header(sorted(cs, key=lambda c: (c.start, c.end))) for p, cs in by_path.items()}
    files_with: dict[str, int] = {}
    for h in headers.values():
        if h is not None:
            files_with[h[2]] = files_with.get(h[2], 0) + 1
    out: list[Chunk] = []
    for c in chunks:
        h = headers[c.path]
        if h is None or files_with[h[2]] <= min_files or not h[0] <= c.start <= h[1] or c.end <= h[1]:
            out.append(c)
            continue
        n = h[1] - c.start + 1
        cut = HeaderCut(lines=n, tokens=count_tokens("\n".join(c.text.split("\n")[:n])), inputs=drop_for)
        out.append(Chunk(c.path, c.start, c.end, c.text, c.language, c.symbol, {**c.meta, HEADER: cut}))
    return out
