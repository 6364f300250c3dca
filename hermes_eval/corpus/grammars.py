"""Tree-sitter parsers for the corpus languages that have a grammar wheel here.

The grammars come from the per-language wheels (``tree_sitter_go.language()`` ...), imported
lazily on first use; tree-sitter-language-pack downloads at run time and is not used. ``.tsx``
files (language ``typescript``) parse with the TSX grammar.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

# grammar name -> (wheel module, function returning the language pointer)
GRAMMARS: dict[str, tuple[str, str]] = {
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}
# comment node types of those grammars
COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})


def grammar_for(language: str, path: str = "") -> str | None:
    """The grammar that parses a file of ``language`` at ``path`` (None: no grammar here)."""
    if language == "typescript" and path.lower().endswith(".tsx"):
        return "tsx"
    return language if language in GRAMMARS else None


@lru_cache(maxsize=8)
def _parser(grammar: str):
    import tree_sitter

    module, func = GRAMMARS[grammar]
    return tree_sitter.Parser(tree_sitter.Language(getattr(importlib.import_module(module), func)()))


def parse(text: str, language: str, path: str = ""):
    """The tree-sitter tree of ``text``, or None when ``language`` has no grammar here."""
    grammar = grammar_for(language, path)
    if grammar is None:
        return None
    return _parser(grammar).parse(text.encode("utf-8"))


def rows(node) -> tuple[int, int]:
    """1-based first and last line of ``node``; a node ending at column 0 (a Rust line comment
    takes its newline) ends on the line before."""
    (r0, _), (r1, c1) = node.start_point, node.end_point
    return r0 + 1, (r1 if c1 == 0 and r1 > r0 else r1 + 1)


def text_of(node) -> str:
    """The source text of ``node`` ('' for None)."""
    return node.text.decode("utf-8", "replace") if node is not None else ""


def walk(node):
    """``node`` and every descendant, depth first in source order."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))
