"""What an index leg reads of a chunk: its text, or its text without the header a chunker marked.

A chunker may record in ``chunk.meta[HEADER]`` a :class:`HeaderCut`: the chunk's first ``lines`` lines are
boilerplate the corpus shares (``retrievers.chunkers.shared_header``), left out of what the legs named in
``inputs`` read (``"vector"``: the embedder; ``"text"``: lexical indexes). The chunk itself is unchanged:
its id, lines and ``text`` stay the file's, so gold spans judge it as before.
"""
from __future__ import annotations

from dataclasses import dataclass

from retrievers.chunk import Chunk

HEADER = "header_removed"


@dataclass(frozen=True)
class HeaderCut:
    """``lines`` leading lines of a chunk (``tokens`` of them, :func:`retrievers.chunkers.tokens.count_tokens`)
    dropped from what the legs reading ``inputs`` see."""

    lines: int
    tokens: int
    inputs: tuple[str, ...] = ("vector",)


def header_cut(chunk: Chunk) -> HeaderCut | None:
    """The cut a chunker recorded on ``chunk``, if any."""
    cut = chunk.meta.get(HEADER) if chunk.meta else None
    return cut if isinstance(cut, HeaderCut) else None


def leg_text(chunk: Chunk, input: str) -> str:
    """The text a leg whose documents are ``input`` (``"text"`` or ``"vector"``) reads of ``chunk``."""
    cut = header_cut(chunk)
    if cut is None or input not in cut.inputs:
        return chunk.text
    parts = chunk.text.split("\n", cut.lines)
    return parts[cut.lines].lstrip("\n") if len(parts) > cut.lines else ""


def leg_texts(chunks, input: str) -> list[str]:
    """:func:`leg_text` of every chunk (their own strings when nothing is cut)."""
    return [leg_text(c, input) for c in chunks]


def cut_totals(chunks) -> dict[str, int]:
    """The header cuts over ``chunks``: files and chunks cut, lines and tokens removed (zeros when none)."""
    files: set[str] = set()
    out = {"files": 0, "chunks": 0, "lines": 0, "tokens": 0}
    for c in chunks:
        cut = header_cut(c)
        if cut is not None:
            files.add(c.path)
            out["chunks"] += 1
            out["lines"] += cut.lines
            out["tokens"] += cut.tokens
    out["files"] = len(files)
    return out


def add_totals(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Two :func:`cut_totals` of disjoint chunk sets (snapshot batches) as one."""
    return {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}


def header_removed(totals: dict[str, int]) -> dict:
    """A run record's ``chunks.header_removed`` (files, chunks, lines and tokens the cut legs did not read),
    only when some chunk was cut: the records of every other run keep their keys."""
    return {"header_removed": dict(sorted(totals.items()))} if totals.get("chunks") else {}
