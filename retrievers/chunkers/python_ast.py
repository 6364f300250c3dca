"""Python chunks at definition boundaries (functions, classes, methods) via ``ast``.

Top-level functions and classes become chunks; a class larger than ``max_lines`` is split
into its header and one chunk per method. Lines between definitions (imports, constants)
are gathered into gap chunks, so every line of the file lies in some chunk. Syntax errors
and non-Python files fall back to line windows.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from retrievers.chunk import Chunk
from retrievers.chunkers.base import (Chunker, definition_start, is_blank, make_chunk, python_tree, split_lines,
                                      windows)
from retrievers.chunkers.lines import LineChunker
from retrievers.identity.declare import declare

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@declare("retrievers.chunkers.python_ast.PythonASTChunker")
@dataclass(frozen=True)
class PythonASTChunker(Chunker):
    max_lines: int = 80
    overlap: int = 5
    fallback: LineChunker = field(default_factory=LineChunker)

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset({"python"})

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        tree = python_tree(text, language)
        if tree is None:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        spans: list[tuple[int, int, str | None]] = []
        for node in tree.body:
            if isinstance(node, _DEFS):
                spans.extend(self._definition(node, None))
        return self._cover(path, lines, language, spans)

    def _definition(self, node: ast.AST, owner: str | None) -> list[tuple[int, int, str | None]]:
        name = f"{owner}.{node.name}" if owner else node.name
        start, end = definition_start(node), node.end_lineno
        if end - start + 1 <= self.max_lines or not isinstance(node, ast.ClassDef):
            return self._split(start, end, name)
        methods = [n for n in node.body if isinstance(n, _DEFS)]
        if not methods:
            return self._split(start, end, name)
        out: list[tuple[int, int, str | None]] = []
        cursor = start
        for m in methods:
            m_start = definition_start(m)
            if m_start > cursor:
                out.extend(self._split(cursor, m_start - 1, name))
            out.extend(self._definition(m, name))
            cursor = m.end_lineno + 1
        if cursor <= end:
            out.extend(self._split(cursor, end, name))
        return out

    def _split(self, start: int, end: int, symbol: str | None) -> list[tuple[int, int, str | None]]:
        if end - start + 1 <= self.max_lines:
            return [(start, end, symbol)]
        return [(s, e, symbol) for s, e in windows(end - start + 1, self.max_lines,
                                                     self.overlap, first=start)]

    def _cover(self, path: str, lines: list[str], language: str,
               spans: list[tuple[int, int, str | None]]) -> list[Chunk]:
        """Add gap chunks so the chunks cover every line of the file."""
        spans = sorted(spans)
        out: list[Chunk] = []
        cursor = 1
        for s, e, sym in spans:
            if s > cursor:
                out.extend(self._gap(path, lines, language, cursor, s - 1))
            if not is_blank(lines, s, e):
                out.append(make_chunk(path, lines, s, e, language, sym))
            cursor = max(cursor, e + 1)
        if cursor <= len(lines):
            out.extend(self._gap(path, lines, language, cursor, len(lines)))
        return out

    def _gap(self, path: str, lines: list[str], language: str, s: int, e: int) -> list[Chunk]:
        return [make_chunk(path, lines, a, b, language) for a, b, _ in self._split(s, e, None)
                if not is_blank(lines, a, b)]
