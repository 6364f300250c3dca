"""Which chunker really cuts files of a language: cAST parses Python, Java, C# and TypeScript only,
tree-sitter symbols the languages its config lists (Go, Rust, JavaScript and TypeScript unless it
lists Java and C too), and so on; every other language goes to the
chunker's ``fallback``. A board comparing chunkers on a polyglot corpus must say so, or
"cast on Go" reads as cAST when it is the heuristic.

``NATIVE`` maps a chunker class to the languages it parses itself (``None``: any language, it
does not parse). Files that fail to parse (a Python syntax error) are not language-level and are
not counted here.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from retrievers.chunkers.base import chunk_files

from retrievers.chunkers.cast import LANGUAGES as CAST_LANGUAGES
from retrievers.chunkers.cast import CASTChunker
from retrievers.chunkers.dispatch import LanguageDispatcher
from retrievers.chunkers.hermes_python import HermesPythonChunker
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.js_regex import JSRegexChunker
from retrievers.chunkers.lines import LineChunker
from retrievers.chunkers.markdown import MarkdownChunker
from retrievers.chunkers.python_ast import PythonASTChunker
from retrievers.chunkers.treesitter_symbols import GRAMMARS, TreeSitterSymbolChunker
from retrievers.chunkers.whole import WholeFileChunker
from retrievers.identity.probe import chunker_probe

NATIVE: dict[type, Callable[[Any], "frozenset[str] | None"]] = {
    LineChunker: lambda c: None,
    HeuristicChunker: lambda c: None,
    WholeFileChunker: lambda c: None,
    PythonASTChunker: lambda c: frozenset({"python"}),
    HermesPythonChunker: lambda c: frozenset({"python"}),
    CASTChunker: lambda c: frozenset(CAST_LANGUAGES),
    TreeSitterSymbolChunker: lambda c: frozenset(c.languages) & frozenset(GRAMMARS),
    JSRegexChunker: lambda c: frozenset(c.languages),
    MarkdownChunker: lambda c: frozenset(c.languages),
}


def handler(chunker: Any, language: str) -> tuple[Any, bool]:
    """(the chunker that cuts files of ``language``, whether a ``fallback`` was taken to reach it).
    A dispatcher's route counts as the chunker itself; its ``fallback`` as a fallback."""
    if isinstance(chunker, LanguageDispatcher):
        inner = chunker.chunker_for(language)
        found, fell = handler(inner, language)
        return found, fell or inner is chunker.fallback
    native = NATIVE.get(type(chunker), lambda c: None)(chunker)
    fallback = chunker.fallback
    if native is None or language in native or fallback is None:
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
