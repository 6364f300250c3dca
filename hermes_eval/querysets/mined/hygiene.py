"""Queries that already localize their change (Kochhar et al., ASE 2014): the message names a gold
file (its path or file name) or a gold symbol (a function, method, class or type whose definition
overlaps a gold span; Python through ``ast``, the tree-sitter languages through their definition
finders, any other language by file names alone). Such a query is easy for lexical search and is
reported in a stratum of its own."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterable, Iterator

from hermes_eval.corpus.grammars import parse
from hermes_eval.querysets.python.definitions import def_start, iter_defs
from hermes_eval.querysets.treesitter.definitions import FINDERS, definitions

MIN_SYMBOL = 3  # shorter names (``f``, ``id``) are words in any message
LOCALIZED, NOT_LOCALIZED = "already_localized", "not_localized"


@dataclass(frozen=True)
class Localized:
    """What a query names of its gold: file paths or names, and symbol names."""

    files: tuple[str, ...] = ()
    symbols: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.files or self.symbols)

    @property
    def stratum(self) -> str:
        return LOCALIZED if self else NOT_LOCALIZED

    def to_dict(self) -> dict:
        return {"files": list(self.files), "symbols": list(self.symbols)}


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


def _names_file(text: str, path: str) -> bool:
    """``path`` (or a longer path ending with it) as a word of ``text``, case-insensitive."""
    return re.search(rf"(?<![\w.-]){re.escape(path)}(?![\w/-])", text, re.I) is not None


def _names_symbol(text: str, name: str) -> bool:
    """``name`` as an identifier of ``text`` (``Cart.checkout`` and ``checkout()`` name ``checkout``)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def localized(query: str, paths: Iterable[str], symbols: Iterable[str]) -> Localized:
    """Which gold files (path or file name, case-insensitive) and symbols (case-sensitive) ``query`` names."""
    files = sorted(p for p in set(paths) if _names_file(query, p) or _names_file(query, p.rsplit("/", 1)[-1]))
    names = sorted(s for s in set(symbols) if _names_symbol(query, s))
    return Localized(tuple(files), tuple(names))
