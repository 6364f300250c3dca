"""Tree-sitter parsers from the per-language grammar wheels, and the two facts read off a node
everywhere (its 1-based lines, its text). Shared by the symbol chunker and the corpus's masking
and query-set generators, so a grammar loads one way only."""
from __future__ import annotations

import importlib
from functools import lru_cache


@lru_cache(maxsize=8)
def parser(module: str, entry: str = "language"):
    """A ``tree_sitter.Parser`` for the grammar that ``module.entry()`` returns (imported lazily)."""
    import tree_sitter

    return tree_sitter.Parser(tree_sitter.Language(getattr(importlib.import_module(module), entry)()))


def rows(node) -> tuple[int, int]:
    """1-based first and last line of ``node``; a node ending at column 0 (a Rust line comment
    takes its newline) ends on the line before."""
    (r0, _), (r1, c1) = node.start_point, node.end_point
    return r0 + 1, (r1 if c1 == 0 and r1 > r0 else r1 + 1)


def text_of(node) -> str:
    """The source text of ``node`` ('' for None)."""
    return node.text.decode("utf-8", "replace") if node is not None else ""
