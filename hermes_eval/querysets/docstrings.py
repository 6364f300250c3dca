"""Auto queries from Python docstrings: first paragraph as the query, the definition as gold.

The docstring is recorded as a mask so the runner blanks it from the indexed corpus;
otherwise the benchmark measures self-retrieval (CodeSearchNet practice).
"""
from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass

from hermes_eval.corpus.model import Corpus
from hermes_eval.querysets.model import QuerySet
from hermes_eval.spans import Query, Span

_WS = re.compile(r"\s+")


def first_paragraph(doc: str) -> str:
    return _WS.sub(" ", re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]).strip()


def _defs(tree: ast.AST, owner: str = ""):
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{owner}.{node.name}" if owner else node.name
            yield name, node
            if isinstance(node, ast.ClassDef):
                yield from _defs(node, name)


@dataclass(frozen=True)
class DocstringQueries:
    """Generator config; ``generate(corpus, name)`` returns a QuerySet."""

    min_words: int = 4
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        candidates: list[Query] = []
        skipped = {"short_docstring": 0, "duplicate_text": 0, "syntax_error": 0}
        seen: dict[str, int] = {}
        for f in corpus.files:
            if f.language != "python":
                continue
            try:
                tree = ast.parse(f.text)
            except (SyntaxError, ValueError):
                skipped["syntax_error"] += 1
                continue
            for symbol, node in _defs(tree):
                doc = ast.get_docstring(node, clean=True)
                if not doc:
                    continue
                text = first_paragraph(doc)
                if len(text.split()) < self.min_words:
                    skipped["short_docstring"] += 1
                    continue
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                expr = node.body[0]
                key = text.lower()
                seen[key] = seen.get(key, 0) + 1
                candidates.append(Query(
                    qid=f"{f.path}:{node.lineno}:{symbol}", query=text,
                    gold=(Span(f.path, start, node.end_lineno),), kind="docstring", repo=f.repo,
                    meta={"symbol": symbol,
                          "mask": [Span(f.path, expr.lineno, expr.end_lineno).to_dict()]}))
        unique = [q for q in candidates if seen[q.query.lower()] == 1]
        skipped["duplicate_text"] = len(candidates) - len(unique)
        chosen = self._sample(unique)
        manifest = {"generator": "docstring", "generator_version": self.version, "seed": self.seed,
                    "params": {"min_words": self.min_words, "max_queries": self.max_queries},
                    "corpus": corpus.name, "corpus_fingerprint": corpus.fingerprint,
                    "counts": {"candidates": len(candidates), "queries": len(chosen)},
                    "skipped": skipped}
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest)

    def _sample(self, queries: list[Query]) -> list[Query]:
        """Seeded round-robin over repositories so every repository is represented."""
        rng = random.Random(self.seed)
        by_repo: dict[str, list[Query]] = {}
        for q in sorted(queries, key=lambda q: q.qid):
            by_repo.setdefault(q.repo, []).append(q)
        for qs in by_repo.values():
            rng.shuffle(qs)
        out: list[Query] = []
        pools = [by_repo[r] for r in sorted(by_repo)]
        while len(out) < self.max_queries and any(pools):
            for pool in pools:
                if pool and len(out) < self.max_queries:
                    out.append(pool.pop())
        return sorted(out, key=lambda q: q.qid)
