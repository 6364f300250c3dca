"""RepoEval-style tasks from any Python repository, judged without leaking the query.

The hole is a line, an API call of a repository-defined function, or a function body; the
query is the left context; ``exclude`` is the hole and everything after it in that file (from the
query's first line with ``exclude_context``, as RepoCoder searches); gold
is the definitions of the repository symbols the ground truth uses (``resolve.py``). Gold that
lies in the excluded part of the file, or inside the query's own lines, cannot be a fair target
and is dropped; a task left with no gold is skipped and counted with its reason. Every task
carries ``meta["answer_in_prompt"]`` (``prompt_answer.py``; with ``answer_in_prompt_reason``
when true); ``drop_answer_in_prompt`` skips those tasks instead.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from hermes_eval.querysets.holes import Hole
from hermes_eval.querysets.generators.prompt_answer import answer_in_prompt
from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.python.resolve import used_definitions
from hermes_eval.querysets.generators.completion import HoleQueries, Judgement
from hermes_eval.core import Query, Span
from retrievers.identity.declare import declare


@declare("hermes_eval.querysets.repoeval.RepoEvalQueries")
@dataclass(frozen=True)
class RepoEvalQueries(HoleQueries):
    """Generator config: ``level`` is line, api or function."""

    drop_gold_in_context: bool = True
    answer_line_min_chars: int = 25
    drop_answer_in_prompt: bool = False
    # also exclude the query's own lines (RepoCoder drops every window of the task's file that is not
    # wholly before the prompt): otherwise a long prompt's best match is itself, which the model has
    exclude_context: bool = False

    protocol: ClassVar[str] = "repoeval"

    def judge(self, hole: Hole, first: int, total: int, index: ModuleIndex) -> Judgement:
        defs = used_definitions(index, hole.path, hole.start, hole.end)
        if not defs:
            return "no_repo_symbol"
        after = [(d, s) for d in defs for s in d.spans
                 if not (s.path == hole.path and s.end >= hole.start)]
        if not after:
            return "gold_after_hole"
        fair = [(d, s) for d, s in after if not (self.drop_gold_in_context and s.path == hole.path
                                                 and s.start < hole.start and s.end >= first)]
        if not fair:
            return "gold_in_query_context"
        gold = tuple(sorted({s for _, s in fair}))
        symbols = sorted({f"{d.path}:{d.qualname}" for d, _ in fair})
        start = min(first, hole.start) if self.exclude_context else hole.start
        return gold, (Span(hole.path, max(start, 1), max(hole.end, total)),), {"symbols": symbols}

    def review(self, query: Query, hole: Hole, lines: list[str], index: ModuleIndex) -> Query | str:
        """Flag (or drop) a task whose answer is already in its prompt."""
        reason = answer_in_prompt(index, hole.path, query.meta["symbols"], query.query, lines,
                                  query.meta["context_start"], hole.start, query.meta["ground_truth"],
                                  self.answer_line_min_chars)
        if reason is not None and self.drop_answer_in_prompt:
            return "answer_in_prompt"
        flags = {"answer_in_prompt": reason is not None}
        if reason is not None:
            flags["answer_in_prompt_reason"] = reason
        return replace(query, meta=dict(query.meta, **flags))
