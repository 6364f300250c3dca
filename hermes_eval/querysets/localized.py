"""Queries that already localize their change (Kochhar et al., ASE 2014, "Potential biases in bug
localization: do they matter?"): the text names a gold file (its path or file name) or a gold symbol.
Such a query is easy for lexical search and is reported in a stratum of its own. The miner finds symbols
by parsing (querysets/mined/hygiene.py); a bug report set names its gold classes by file (a Java file is
its public class: ``Foo.java`` is named by ``Foo``), as Kochhar et al. count a report that names a buggy
file's class."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

LOCALIZED, NOT_LOCALIZED = "already_localized", "not_localized"
CLASS_FILE_LANGUAGES = (".java",)  # a file named after the class it holds
MIN_CLASS = 3  # shorter class names are words in any report


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


def report_localized(text: str, gold_paths: Iterable[str]) -> Localized:
    """What a bug report names of its gold files: a path or file name, or the class a ``.java`` file is
    named after (case-sensitive, as an identifier: ``Http11Processor`` or ``o.a.c.Http11Processor.run``)."""
    paths = set(gold_paths)
    classes = {p.rsplit("/", 1)[-1].rsplit(".", 1)[0] for p in paths if p.endswith(CLASS_FILE_LANGUAGES)}
    return localized(text, paths, (c for c in classes if len(c) >= MIN_CLASS))


def flags(found: Localized) -> dict:
    """A query's meta keys for its stratum (the miner's and every importer's)."""
    return {"already_localized": bool(found), "localized_by": found.to_dict(), "localized": found.stratum}


__all__ = ["CLASS_FILE_LANGUAGES", "LOCALIZED", "NOT_LOCALIZED", "Localized", "flags", "localized",
           "report_localized"]
