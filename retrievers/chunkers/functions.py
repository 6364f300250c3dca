"""One document per Python function, as the SWE-bench localization papers rank them.

LocAgent and SweRank (CoRNStack's corpus format ``path/Class/method``) index every module-level
function and every method of every class, whole; nested functions stay inside their parent.
Nothing else is a document: not module-level code, not class bodies outside their methods, not
files of other languages or that do not parse (they yield no chunks). Ranking files by their best
function, as those papers do, is the file level of such a run (files in the order of their first
chunk).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import ClassVar

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, definition_start, make_chunk, python_tree, split_lines
from retrievers.identity.declare import declare

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


@declare("retrievers.chunkers.functions.FunctionChunker")
@dataclass(frozen=True)
class FunctionChunker(Chunker):
    """``decorators``: a function's chunk starts at its first decorator (else at ``def``)."""

    decorators: bool = True
    selective: ClassVar[bool] = True  # covers functions only, not every line (retrievers/chunkers/base.py)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        tree = python_tree(text, language)
        if tree is None:
            return []
        lines = split_lines(text)
        out: list[Chunk] = []
        self._walk(tree.body, None, path, lines, language, out)
        return out

    def _walk(self, body: list[ast.stmt], owner: str | None, path: str, lines: list[str], language: str,
              out: list[Chunk]) -> None:
        for node in body:
            if isinstance(node, _FUNCS):
                start = definition_start(node) if self.decorators else node.lineno
                name = f"{owner}/{node.name}" if owner else node.name
                out.append(make_chunk(path, lines, start, node.end_lineno, language, symbol=name))
            elif isinstance(node, ast.ClassDef):
                self._walk(node.body, f"{owner}/{node.name}" if owner else node.name, path, lines, language, out)
