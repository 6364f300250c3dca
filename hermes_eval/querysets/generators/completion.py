"""Completion tasks as retrieval queries: find holes, take the left context as the query, and let
the protocol (repoeval-style, sia-code, coderag-bench) decide gold and exclude spans."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, Union

from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.holes import Hole, HoleRules, left_context
from hermes_eval.querysets.python.holes import FINDERS
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.python.definitions import parsed_python
from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.generators.manifest import manifest
from hermes_eval.querysets.sampling import stratified_sample, unique_texts
from hermes_eval.core import Query, Span
from retrievers.identity.declare import declare

# (gold, exclude, extra meta), or the reason the task is skipped
Judgement = Union[tuple[tuple[Span, ...], tuple[Span, ...], dict], str]


def n_lines(text: str) -> int:
    """Line count as ``ast`` numbers lines (a trailing newline adds none)."""
    return len(text.split("\n")) - (1 if text.endswith("\n") else 0)


def repo_indexes(corpus: Corpus) -> dict[str, ModuleIndex]:
    """One module index per repository of ``corpus``."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for f in corpus.files:
        if f.language == "python":
            groups.setdefault(f.repo, []).append((f.path, f.text))
    return {repo: ModuleIndex(files) for repo, files in groups.items()}


@declare("hermes_eval.querysets.tasks.HoleQueries")
@dataclass(frozen=True)
class HoleQueries:
    """Base generator: subclasses set ``protocol`` and implement ``judge``."""

    level: str = "line"
    context_lines: int | None = 20
    context_chars: int | None = None
    min_context_chars: int = 40
    min_target_chars: int = 10
    max_hole_lines: int = 8
    min_body_lines: int = 3
    max_body_lines: int = 60
    max_queries: int = 300
    seed: int = 0
    version: str = "1"

    protocol: ClassVar[str] = ""
    leaks: ClassVar[bool] = False  # a published protocol known to put the query in its gold

    def judge(self, hole: Hole, first: int, total: int, index: ModuleIndex) -> Judgement:
        raise NotImplementedError

    @property
    def kind(self) -> str:
        return f"{self.protocol}-{self.level}"

    def params(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("seed", "version")}

    def query_for(self, hole: Hole, lines: list[str], total: int, index: ModuleIndex,
                  qid: str | None = None, context: tuple[str, int] | None = None,
                  meta: dict | None = None) -> Query | str:
        """The query for one hole, or the reason it is skipped."""
        text, first = context or left_context(lines, hole.start, self.context_lines, self.context_chars)
        if len(text.strip()) < self.min_context_chars:
            return "short_context"
        judged = self.judge(hole, first, total, index)
        if isinstance(judged, str):
            return judged
        gold, exclude, extra = judged
        target = "\n".join(lines[hole.start - 1:hole.end])
        query = Query(qid=qid or f"{hole.path}:{hole.start}-{hole.end}:{hole.level}", query=text,
                      gold=gold, exclude=exclude, kind=self.kind, repo=hole.repo,
                      meta=dict(meta or {}, protocol=self.protocol, level=hole.level,
                                hole=[hole.start, hole.end], context_start=first,
                                ground_truth=target, **extra))
        return self.review(query, hole, lines, index)

    def review(self, query: Query, hole: Hole, lines: list[str], index: ModuleIndex) -> Query | str:
        """A last look at a finished query: the query (flags added), or the reason it is skipped."""
        return query

    def generate(self, corpus: Corpus, name: str) -> QuerySet:
        if self.level not in FINDERS:
            raise UserError(f"queryset.generator.level={self.level!r}: use one of {sorted(FINDERS)}")
        rules = HoleRules(self.min_target_chars, self.max_hole_lines, self.min_body_lines, self.max_body_lines)
        indexes = repo_indexes(corpus)
        skipped: dict[str, int] = {"syntax_error": 0}
        candidates: list[Query] = []
        holes = 0
        for f, tree in parsed_python(corpus, skipped):
            lines = f.text.split("\n")
            total = n_lines(f.text)
            for hole in FINDERS[self.level](f.path, f.repo, lines, tree, indexes[f.repo], rules):
                holes += 1
                got = self.query_for(hole, lines, total, indexes[f.repo])
                if isinstance(got, str):
                    skipped[got] = skipped.get(got, 0) + 1
                else:
                    candidates.append(got)
        unique, skipped["duplicate_text"] = unique_texts(candidates)
        chosen = stratified_sample(unique, self.max_queries, self.seed)
        return QuerySet(name=name, queries=tuple(chosen), manifest=manifest(
            f"{self.protocol}-{self.level}", self.version, self.seed, self.params(), corpus,
            {"holes": holes, "candidates": len(candidates), "queries": len(chosen)}, skipped,
            protocol=self.protocol, leaks_by_design=self.leaks))
