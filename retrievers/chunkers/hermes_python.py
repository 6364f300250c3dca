"""HERMES' Python chunker: one chunk per top-level function, async function and class.

Blocks start at their first decorator. A block longer than ``max_chars`` is split into
character-capped windows with ``overlap_lines`` of overlap (the heuristic's windowing, inside
the block). Module-level code between blocks (imports, constants, ``if __name__`` tails) is
chunked by the heuristic so every non-blank line is covered. Syntax errors and other
languages go to the heuristic whole. Unlike ``python_ast``, methods are never split out of a
class unless the class is over the cap.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, definition_start, python_tree, split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.identity.declare import declare

_KINDS = {ast.FunctionDef: "function", ast.AsyncFunctionDef: "async_function", ast.ClassDef: "class"}


@declare("retrievers.chunkers.hermes_python.HermesPythonChunker")
@dataclass(frozen=True)
class HermesPythonChunker(Chunker):
    """Top-level Python definitions via ``ast``; oversized ones split with overlap."""

    max_chars: int = 1500
    overlap_lines: int = 3
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset({"python"})

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        tree = python_tree(text, language)
        if tree is None:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        pieces: list[Piece] = []
        for node in tree.body:
            kind = _KINDS.get(type(node))
            if kind is not None:
                pieces.extend(self._block(lines, node, kind))
        return assemble(path, lines, language, pieces, self.fallback)

    def _block(self, lines: list[str], node: ast.AST, kind: str) -> list[Piece]:
        start = definition_start(node)
        end = node.end_lineno or node.lineno
        size = sum(len(line) + 1 for line in lines[start - 1:end])
        if size <= self.max_chars:
            return [Piece(start, end, node.name, {"kind": kind})]
        splitter = HeuristicChunker(max_chars=self.max_chars, overlap_lines=self.overlap_lines,
                                    min_fill=1.0)
        parts = splitter.split(lines, start, end)
        return [Piece(p.start, p.end, node.name, {"kind": kind, "part": i, "parts": len(parts)})
                for i, p in enumerate(parts)]
