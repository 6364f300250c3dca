"""Blank out the text queries were taken from, keeping every line number in place."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterable

from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.core import Span


def _docstring_nodes(tree: ast.AST) -> dict[tuple[int, int], ast.Expr]:
    out = {}
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            out[(body[0].lineno, body[0].end_lineno)] = body[0]
    return out


def mask_text(text: str, spans: Iterable[Span], language: str) -> str:
    """Replace each span: a Python docstring becomes ``""`` (still valid code), anything else
    (comments) becomes empty lines. The line count never changes."""
    spans = sorted(set(spans))
    if not spans:
        return text
    lines = text.split("\n")
    docs: dict[tuple[int, int], ast.Expr] = {}
    if language == "python":
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
            for i in range(s.start - 1, min(s.end, len(lines))):
                lines[i] = ""
    return "\n".join(lines)


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
        files.append(replace(f, text=mask_text(f.text, spans, f.language)) if spans else f)
    return replace(corpus, files=tuple(files))
