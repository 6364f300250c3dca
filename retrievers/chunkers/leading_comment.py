"""The comment block a file opens with (a licence header, a generated-code banner), by language.

``leading_comment(lines, language)`` is how many of ``lines`` (a file's lines from its first non-blank
one) that block takes: consecutive block comments (``/* ... */``) and line comments (``//``, ``#``, ``--``)
with blank lines between them, up to its last comment line; 0 when the first non-blank line is code or
the language's comment syntax is not known here (a ``#`` in C is a directive, not a comment).
"""
from __future__ import annotations

# line-comment prefixes and whether ``/* ... */`` blocks exist, per language name of the corpus scanner
_C_LIKE = ("//",)
SYNTAX: dict[str, tuple[tuple[str, ...], bool]] = {
    **{lang: (_C_LIKE, True) for lang in (
        "java", "go", "c", "cpp", "csharp", "javascript", "typescript", "tsx", "jsx", "rust", "kotlin", "scala",
        "swift", "php", "dart", "groovy", "objc", "css", "scss", "less", "proto")},
    **{lang: (("#",), False) for lang in (
        "python", "ruby", "shell", "bash", "perl", "r", "yaml", "toml", "make", "makefile", "dockerfile", "cmake")},
    "sql": (("--",), True),
    "lua": (("--",), False),
}


def leading_comment(lines: list[str], language: str) -> int:
    """Lines of ``lines`` that the opening comment block takes (0 when there is none)."""
    syntax = SYNTAX.get(language)
    if syntax is None:
        return 0
    prefixes, blocks = syntax
    n, last, i = len(lines), 0, 0
    while i < n:
        s = lines[i].strip()
        if not s:
            i += 1
            continue
        if blocks and s.startswith("/*"):
            j = i
            while j < n and "*/" not in (lines[j].strip()[2:] if j == i else lines[j]):
                j += 1
            if j == n:  # an unclosed block: not a header we can delimit
                return last
            if lines[j].split("*/", 1)[1].strip():  # code after the block on its closing line
                return last
            last = i = j + 1
            continue
        if s.startswith(prefixes):
            last = i = i + 1
            continue
        break
    return last
