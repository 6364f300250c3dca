"""Which chunker really cuts files of a language: cAST parses Python, Java, C# and TypeScript only,
tree-sitter symbols the languages its config lists (Go, Rust, JavaScript and TypeScript unless it
lists Java and C too), and so on; every other language goes to the
chunker's ``fallback``. A board comparing chunkers on a polyglot corpus must say so, or
"cast on Go" reads as cAST when it is the heuristic.

A chunker names the languages it parses itself (``native_languages``; none: any language, it does
not parse). Files that fail to parse (a Python syntax error) are not language-level and are
not counted here.
"""
from __future__ import annotations

from typing import Any, Iterable

from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.dispatch import LanguageDispatcher
from retrievers.identity.probe import chunker_probe


def native(chunker: Any) -> "frozenset[str] | None":
    """The languages ``chunker`` cuts itself, as it declares them (``native_languages``); None: every one
    (line windows, heuristics, whole files). Asked of the chunker, so no chunker module is imported here."""
    declared = getattr(type(chunker), "native_languages", None)
    return declared(chunker) if declared is not None else None


def handler(chunker: Any, language: str) -> tuple[Any, bool]:
    """(the chunker that cuts files of ``language``, whether a ``fallback`` was taken to reach it).
    A dispatcher's route counts as the chunker itself; its ``fallback`` as a fallback."""
    if isinstance(chunker, LanguageDispatcher):
        inner = chunker.chunker_for(language)
        found, fell = handler(inner, language)
        return found, fell or inner is chunker.fallback
    own = native(chunker)
    fallback = chunker.fallback
    if own is None or language in own or fallback is None:
        return chunker, False
    return handler(fallback, language)[0], True


def fallbacks(chunker: Any, languages: Iterable[str]) -> dict[str, str]:
    """language -> class name of the fallback that cuts it, for the ``languages`` that fall back."""
    out = {}
    for lang in sorted(set(languages)):
        found, fell = handler(chunker, lang)
        if fell:
            out[lang] = type(found).__name__
    return out


def probe_chunks(chunker: Any) -> list[tuple]:
    """What a chunker's key holds of its outputs: its chunks of every probe file, Java and C included."""
    return chunker_probe(chunker, chunk_files)
