"""HERMES' JavaScript/TypeScript chunker: regular expressions find function and class starts.

A declaration line (``function f``, ``class C``, ``const f = (...) =>``, ``exports.f =
function``, ``f: function``, class methods, TypeScript ``interface``/``type``/``enum``) opens a
block that runs while the following lines are more indented, plus a closing ``}``/``)`` line
at its own indentation; the comment lines right above it join it. Outermost blocks become
chunks; one over ``max_chars`` is opened up into the declarations inside it, or, with none,
split into character-capped windows. The heuristic chunks whatever is left (imports,
top-level statements) and every other language.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.identity.declare import declare

_NAME = r"[A-Za-z_$][\w$]*"
_PATTERNS: dict[str, str] = {
    "function": rf"(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*(?P<function>{_NAME})",
    "class": rf"(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?class\s+(?P<class>{_NAME})",
    "binding": rf"(?:export\s+)?(?:const|let|var)\s+(?P<binding>{_NAME})\s*(?::[^=]+)?=\s*(?:async\s+)?"
               rf"(?:function\b|class\b|\([^)]*\)\s*(?::\s*[^=]+)?=>|{_NAME}\s*=>)",
    "assigned": rf"(?:[\w$]+\.)+(?P<assigned>{_NAME})\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)",
    "property": rf"(?P<property>{_NAME})\s*:\s*(?:async\s+)?function\b",
    "method": rf"(?:(?:public|private|protected|static|async|get|set|override|readonly)\s+)*"
              rf"(?P<method>{_NAME})\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^{{]+)?\{{\s*$",
    "interface": rf"(?:export\s+)?(?:declare\s+)?interface\s+(?P<interface>{_NAME})",
    "type": rf"(?:export\s+)?(?:declare\s+)?type\s+(?P<type>{_NAME})\s*(?:<[^>]*>)?\s*=",
    "enum": rf"(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+(?P<enum>{_NAME})",
}
_DECL = re.compile(r"^(?P<indent>\s*)(?:" + "|".join(_PATTERNS.values()) + ")")
_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "with", "function", "return", "else"})
_COMMENT = re.compile(r"^\s*(?://|/\*|\*)")
_CLOSER = ("}", ")", "]")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


@declare("retrievers.chunkers.js_regex.JSRegexChunker")
@dataclass(frozen=True)
class JSRegexChunker(Chunker):
    """Function and class blocks found by regular expressions, for JS and TS."""

    max_chars: int = 1500
    overlap_lines: int = 3
    languages: tuple[str, ...] = ("javascript", "typescript")
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset(self.languages)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        if language not in self.languages:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        return assemble(path, lines, language, self._blocks(lines, 1, len(lines)), self.fallback)

    def _blocks(self, lines: list[str], first: int, last: int) -> list[Piece]:
        out: list[Piece] = []
        n = floor = first
        while n <= last:
            found = self._declaration(lines[n - 1])
            if found is None:
                n += 1
                continue
            kind, name = found
            end = min(self._end(lines, n, last), last)
            start = self._lead(lines, n, floor)
            out.extend(self._piece(lines, start, n, end, name, kind))
            n = floor = end + 1
        return out

    def _piece(self, lines: list[str], start: int, head: int, end: int, name: str, kind: str) -> list[Piece]:
        if sum(len(line) + 1 for line in lines[start - 1:end]) <= self.max_chars:
            return [Piece(start, end, name, {"kind": kind})]
        inner = self._blocks(lines, head + 1, end)
        if inner:
            return [Piece(p.start, p.end, f"{name}.{p.symbol}", p.meta) for p in inner]
        splitter = HeuristicChunker(max_chars=self.max_chars, overlap_lines=self.overlap_lines, min_fill=1.0)
        return [Piece(p.start, p.end, name, {"kind": kind, "part": i})
                for i, p in enumerate(splitter.split(lines, start, end))]

    @staticmethod
    def _declaration(line: str) -> tuple[str, str] | None:
        m = _DECL.match(line)
        if m is None:
            return None
        kind = next(k for k in _PATTERNS if m.group(k))
        if kind == "method" and m.group(kind) in _KEYWORDS:
            return None
        return kind, m.group(kind)

    @staticmethod
    def _end(lines: list[str], head: int, last: int) -> int:
        """The block's last line: deeper-indented lines, then a closer at the head's indent."""
        ind, end = _indent(lines[head - 1]), head
        for j in range(head + 1, last + 1):
            line = lines[j - 1]
            if not line.strip():
                continue
            if _indent(line) > ind:
                end = j
                continue
            if _indent(line) == ind and line.lstrip().startswith(_CLOSER):
                end = j
            break
        return end

    @staticmethod
    def _lead(lines: list[str], head: int, first: int) -> int:
        """``head`` moved up over the comment lines directly above it."""
        start = head
        while start - 1 >= first and _COMMENT.match(lines[start - 2]):
            start -= 1
        return start
