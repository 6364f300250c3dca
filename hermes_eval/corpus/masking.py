"""Blank out the text queries were taken from, keeping every line number in place.

One masker per kind of language (``MASKERS``): in Python a masked docstring becomes ``""``
(still valid code); in a language with a tree-sitter grammar (Go, Rust, JavaScript, TypeScript)
every comment inside a masked span is removed, code sharing a line with it stays; anywhere else
(comments of languages without a grammar, markdown headings) the span's lines become empty.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterable

from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.core import Span

Masker = Callable[[str, list[Span], str, str], str]  # (text, sorted spans, language, path) -> text


def _blank_lines(lines: list[str], span: Span) -> None:
    for i in range(span.start - 1, min(span.end, len(lines))):
        lines[i] = ""


def _docstring_nodes(tree: ast.AST) -> dict[tuple[int, int], ast.Expr]:
    out = {}
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            out[(body[0].lineno, body[0].end_lineno)] = body[0]
    return out


def mask_python(text: str, spans: list[Span], language: str, path: str) -> str:
    """A span that is exactly a docstring becomes ``""``; any other span becomes empty lines."""
    lines = text.split("\n")
    try:
        docs = _docstring_nodes(ast.parse(text))
    except (SyntaxError, ValueError):
        docs = {}
    for s in spans:
        node = docs.get((s.start, s.end))
        if node is not None:
            first, last = lines[s.start - 1], lines[s.end - 1]
            head = first.encode()[: node.col_offset].decode(errors="ignore")
            tail = last.encode()[node.end_col_offset:].decode(errors="ignore")
            if s.start == s.end:
                lines[s.start - 1] = head + '""' + tail
            else:
                lines[s.start - 1] = head + '""'
                for i in range(s.start, s.end - 1):
                    lines[i] = ""
                lines[s.end - 1] = tail if tail.strip() else ""
        else:
            _blank_lines(lines, s)
    return "\n".join(lines)


def mask_comments(text: str, spans: list[Span], language: str, path: str) -> str:
    """Remove every comment node lying inside a span (its newlines kept), strip what that leaves
    at the end of a line, and empty the span's lines that held no comment at all."""
    from hermes_eval.corpus.grammars import COMMENT_TYPES, parse, rows, walk  # tree-sitter: only to mask

    tree = parse(text, language, path)
    if tree is None:
        return mask_lines(text, spans, language, path)
    data = text.encode("utf-8")
    cuts: list[tuple[int, int]] = []
    touched: set[int] = set()
    for node in walk(tree.root_node):
        if node.type not in COMMENT_TYPES:
            continue
        first, last = rows(node)
        if any(s.start <= first and last <= s.end for s in spans):
            cuts.append((node.start_byte, node.end_byte))
            touched.update(range(first, last + 1))
    out, at = [], 0
    for a, b in sorted(cuts):
        if a < at:
            continue
        out.append(data[at:a])
        out.append(b"\n" * data[a:b].count(b"\n"))
        at = b
    out.append(data[at:])
    lines = b"".join(out).decode("utf-8", "replace").split("\n")
    for n in touched:
        if n <= len(lines):
            lines[n - 1] = lines[n - 1].rstrip()
    for s in spans:
        for n in range(s.start, min(s.end, len(lines)) + 1):
            if n not in touched:
                lines[n - 1] = ""
    return "\n".join(lines)


def mask_lines(text: str, spans: list[Span], language: str, path: str) -> str:
    """Every span's lines become empty."""
    lines = text.split("\n")
    for s in spans:
        _blank_lines(lines, s)
    return "\n".join(lines)


MASKERS: dict[str, Masker] = {"python": mask_python}


def masker_for(language: str, path: str = "") -> Masker:
    """The masker of ``language``: Python's, the comment masker for a grammar language, else lines."""
    if language in MASKERS:
        return MASKERS[language]
    from hermes_eval.corpus.grammars import grammar_for  # tree-sitter's grammars: only when a set masks

    return mask_comments if grammar_for(language, path) is not None else mask_lines


def mask_text(text: str, spans: Iterable[Span], language: str, path: str = "") -> str:
    """``text`` with ``spans`` masked by its language's masker. The line count never changes."""
    spans = sorted(set(spans))
    if not spans:
        return text
    return masker_for(language, path)(text, spans, language, path)


def mask_corpus(corpus: Corpus, masks: Iterable[Span]) -> Corpus:
    """A corpus whose files have ``masks`` blanked; unchanged files are shared."""
    by_path: dict[str, list[Span]] = {}
    for m in masks:
        by_path.setdefault(m.path, []).append(m)
    if not by_path:
        return corpus
    files: list[CorpusFile] = []
    for f in corpus.files:
        spans = by_path.get(f.path)
        files.append(replace(f, text=mask_text(f.text, spans, f.language, f.path)) if spans else f)
    return replace(corpus, files=tuple(files))
