"""Queries that already localize their change (Kochhar et al., ASE 2014): the message names a gold
file (its path or file name) or a gold symbol (a function, method, class or type whose definition
overlaps a gold span; Python through ``ast``, the tree-sitter languages through their definition
finders, any other language by file names alone). Such a query is easy for lexical search and is
reported in a stratum of its own."""
from __future__ import annotations

import ast
from typing import Iterable, Iterator

from hermes_eval.corpus.grammars import parse
from hermes_eval.querysets.python.definitions import def_start, iter_defs
from hermes_eval.querysets.localized import LOCALIZED, NOT_LOCALIZED, Localized, localized
from hermes_eval.querysets.treesitter.definitions import FINDERS, definitions

MIN_SYMBOL = 3  # shorter names (``f``, ``id``) are words in any message


def _python_defs(text: str) -> Iterator[tuple[str, int, int]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    for qualified, node in iter_defs(tree):
        yield qualified.rsplit(".", 1)[-1], def_start(node), node.end_lineno or node.lineno


def defs_of(text: str, language: str, path: str) -> Iterator[tuple[str, int, int]]:
    """(name, first line, last line) of each definition in a file, for the languages we can parse."""
    if language == "python":
        yield from _python_defs(text)
        return
    if language not in FINDERS:
        return
    tree = parse(text, language, path)
    if tree is not None:
        yield from ((d.name, d.start, d.end) for d in definitions(tree.root_node, language, path))


def gold_symbols(text: str, language: str, path: str, spans: Iterable[tuple[int, int]]) -> set[str]:
    """Names of the definitions in the file that overlap any of ``spans``."""
    spans = list(spans)
    return {name for name, first, last in defs_of(text, language, path)
            if len(name) >= MIN_SYMBOL and any(s <= last and first <= e for s, e in spans)}


__all__ = ["LOCALIZED", "MIN_SYMBOL", "NOT_LOCALIZED", "Localized", "defs_of", "gold_symbols", "localized"]
