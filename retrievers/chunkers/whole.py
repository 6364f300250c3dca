"""One chunk per file: a document is judged whole (CoSQA functions, MTEB/CoIR documents, file-level
retrieval as MTEB's SWE-bench task does it)."""
from __future__ import annotations

from dataclasses import dataclass

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, make_chunk, split_lines
from retrievers.identity.declare import declare


@declare("retrievers.chunkers.whole.WholeFileChunker")
@dataclass(frozen=True)
class WholeFileChunker(Chunker):
    """The file's first to last non-blank line as one chunk; a blank file gives none."""

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        lines = split_lines(text)
        filled = [n for n, line in enumerate(lines, start=1) if line.strip()]
        if not filled:
            return []
        return [make_chunk(path, lines, filled[0], filled[-1], language)]
