"""Auto queries from the leading comment of a Python definition (HERMES "leading comments").

A leading comment is the block of ``#`` lines directly above a definition (same indentation,
no blank line between) or, when there is no docstring, the comment lines that open its body.
The comment lines are recorded as a mask: the runner blanks them from the indexed corpus,
otherwise the query would be retrieved by its own text.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.python.definitions import def_start, iter_defs, parsed_python
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import stratified_sample, unique_texts
from hermes_eval.core import Query, Span
from retrievers.identity.declare import declare

# tool pragmas and decoration, not prose (``#:`` documents the attribute below, not the definition)
_PRAGMA = re.compile(r"^#\s*(noqa|type:|pragma|pylint|fmt:|mypy|isort|ruff|flake8|-\*-|!)", re.I)
_RULE = re.compile(r"^#[\s#=*~_+-]*$")


def _comment(line: str) -> str | None:
    """The prose of a comment line, '' for decoration/pragmas, None for a non-comment line."""
    s = line.strip()
    if not s.startswith("#"):
        return None
    if _PRAGMA.match(s) or _RULE.match(s) or s.startswith("#:"):
        return ""
    return s.lstrip("#").strip()


def _block(lines: list[str], first: int, step: int, indent: int, limit: int) -> tuple[int, int, list[str]]:
    """Walk comment lines from 1-based ``first`` in direction ``step``; (lo, hi, prose parts)."""
    found: list[tuple[int, str]] = []
    n = first
    while 1 <= n <= len(lines) and len(found) < limit:
        line = lines[n - 1]
        text = _comment(line)
        if text is None or len(line) - len(line.lstrip()) != indent:
            break
        found.append((n, text))
        n += step
    if not found:
        return 0, 0, []
    nums = [n for n, _ in found]
    parts = [t for _, t in sorted(found) if t]
    return min(nums), max(nums), parts


@declare("hermes_eval.querysets.comments.LeadingCommentQueries")
@dataclass(frozen=True)
class LeadingCommentQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    min_words: int = 4
    max_comment_lines: int = 12
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def _found(self, lines: list[str], node: ast.AST) -> tuple[int, int, list[str], str] | None:
        start = def_start(node)
        lo, hi, parts = _block(lines, start - 1, -1, node.col_offset, self.max_comment_lines + 1)
        if parts:
            return lo, hi, parts, "above"
        body0 = node.body[0]
        if ast.get_docstring(node) is None and body0.lineno > node.lineno + 1:
            indent = body0.col_offset
            lo, hi, parts = _block(lines, node.body[0].lineno - 1, -1, indent, self.max_comment_lines + 1)
            if parts and lo > node.lineno:
                return lo, hi, parts, "body"
        return None

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        candidates: list[Query] = []
        skipped = {"short_comment": 0, "long_comment": 0, "duplicate_text": 0, "syntax_error": 0}
        for f, tree in parsed_python(corpus, skipped):
            lines = f.text.split("\n")
            for symbol, node in iter_defs(tree):
                found = self._found(lines, node)
                if found is None:
                    continue
                lo, hi, parts, where = found
                if hi - lo + 1 > self.max_comment_lines:
                    skipped["long_comment"] += 1
                    continue
                text = " ".join(" ".join(parts).split())
                if len(text.split()) < self.min_words:
                    skipped["short_comment"] += 1
                    continue
                candidates.append(Query(
                    qid=f"{f.path}:{node.lineno}:{symbol}", query=text,
                    gold=(Span(f.path, def_start(node), node.end_lineno),), kind="comment", repo=f.repo,
                    meta={"symbol": symbol, "comment_position": where,
                          "mask": [Span(f.path, lo, hi).to_dict()]}))
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = stratified_sample(unique, self.max_queries, self.seed)
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            "comment", self.version, self.seed,
            {"min_words": self.min_words, "max_comment_lines": self.max_comment_lines,
             "max_queries": self.max_queries}, corpus,
            {"candidates": len(candidates), "queries": len(chosen)}, skipped))
