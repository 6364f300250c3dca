"""Tree-sitter trees for the corpus languages that have a grammar wheel here.

The wheels and how to load them are the symbol chunker's (:data:`retrievers.chunkers.treesitter_symbols.GRAMMARS`,
loaded by :mod:`retrievers.chunkers.ts_nodes`); tree-sitter-language-pack downloads at run time and
is not used. ``.tsx`` files (language ``typescript``) parse with the TSX grammar.
"""
from __future__ import annotations

from retrievers.chunkers.treesitter_symbols import GRAMMARS as _SYMBOL_GRAMMARS
from retrievers.chunkers.ts_nodes import parser, rows, text_of

__all__ = ["COMMENT_TYPES", "GRAMMARS", "grammar_for", "parse", "rows", "text_of", "walk"]

# grammar name -> (wheel module, function returning the language pointer)
GRAMMARS: dict[str, tuple[str, str]] = {
    **{name: (g.module, g.entry) for name, g in _SYMBOL_GRAMMARS.items()},
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}
# comment node types of those grammars
COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})


def grammar_for(language: str, path: str = "") -> str | None:
    """The grammar that parses a file of ``language`` at ``path`` (None: no grammar here)."""
    if language == "typescript" and path.lower().endswith(".tsx"):
        return "tsx"
    return language if language in GRAMMARS else None


def parse(text: str, language: str, path: str = ""):
    """The tree-sitter tree of ``text``, or None when ``language`` has no grammar here."""
    grammar = grammar_for(language, path)
    if grammar is None:
        return None
    return parser(*GRAMMARS[grammar]).parse(text.encode("utf-8"))


def walk(node):
    """``node`` and every descendant, depth first in source order."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))
