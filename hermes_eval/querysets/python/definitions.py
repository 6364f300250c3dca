"""Python definitions in a parsed file: qualified name, node and the span it occupies."""
from __future__ import annotations

import ast
from typing import Iterator

from hermes_eval.core.corpus import Corpus, CorpusFile

DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def def_start(node: ast.AST) -> int:
    """First line of a definition, decorators included."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def iter_defs(tree: ast.AST, owner: str = "") -> Iterator[tuple[str, ast.AST]]:
    """(qualified name, node) for functions and classes at module level and inside classes."""
    for node in getattr(tree, "body", []):
        if isinstance(node, DEF_TYPES):
            name = f"{owner}.{node.name}" if owner else node.name
            yield name, node
            if isinstance(node, ast.ClassDef):
                yield from iter_defs(node, name)


def parsed_python(corpus: Corpus, skipped: dict[str, int]) -> Iterator[tuple[CorpusFile, ast.Module]]:
    """Each Python file of ``corpus`` with its tree; unparsable files count as ``syntax_error``."""
    for f in corpus.files:
        if f.language != "python":
            continue
        try:
            yield f, ast.parse(f.text)
        except (SyntaxError, ValueError):
            skipped["syntax_error"] = skipped.get("syntax_error", 0) + 1
