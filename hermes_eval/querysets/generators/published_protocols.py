"""The two published RepoEval retrieval protocols, reproduced to show their leak.

- ``sia-code``: query = the last 500 characters of the left context, gold = the whole target
  file, nothing excluded. The query is cut from the very file that counts as the hit.
- ``coderag-bench``: the corpus is cut into 20-line windows every 10 lines; gold = the windows
  of the target file overlapping the prompt's lines (and the hole line, as the published code
  does); nothing excluded. The gold windows contain the prompt itself. Generated sets spell the
  windows out as gold (any chunker then approximates them); an imported RepoEval set
  (``window: None``) gives the lines themselves and leaves the windows to
  ``chunker=coderag_windows``, which reproduces the published corpus.

Both label their queries (kind, manifest ``protocol`` and ``leaks_by_design``); hygiene's
``self_retrieval_share`` / ``leak_share`` flag them. Use ``repoeval.py`` for honest numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hermes_eval.querysets.holes import Hole
from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.generators.completion import HoleQueries, Judgement
from hermes_eval.core import Span
from retrievers.identity.declare import declare


@declare("hermes_eval.querysets.protocols.SiaCodeQueries")
@dataclass(frozen=True)
class SiaCodeQueries(HoleQueries):
    """sia-code's protocol: gold is the target file."""

    context_lines: int | None = None
    context_chars: int | None = 500

    protocol: ClassVar[str] = "sia-code"
    leaks: ClassVar[bool] = True

    def judge(self, hole: Hole, first: int, total: int, index: ModuleIndex) -> Judgement:
        return (Span(hole.path, 1, max(total, 1)),), (), {}


def windows(total: int, size: int, step: int) -> list[tuple[int, int]]:
    """CodeRAG-Bench's windows as 1-based inclusive spans: centred every ``step`` lines."""
    out: list[tuple[int, int]] = []
    for centre in range(0, total, step):
        span = (max(0, centre - size // 2) + 1, min(total, centre + size - size // 2))
        if not out or out[-1] != span:
            out.append(span)
    return out


@declare("hermes_eval.querysets.protocols.CodeRAGBenchQueries")
@dataclass(frozen=True)
class CodeRAGBenchQueries(HoleQueries):
    """CodeRAG-Bench's protocol: gold is every window overlapping the prompt (and hole line);
    with ``window=None`` the prompt's lines and the hole's first line themselves."""

    context_lines: int | None = None
    context_chars: int | None = 3000
    window: int | None = 20
    window_step: int = 10

    protocol: ClassVar[str] = "coderag-bench"
    leaks: ClassVar[bool] = True

    def judge(self, hole: Hole, first: int, total: int, index: ModuleIndex) -> Judgement:
        if self.window is None:  # half-open [context_start_lineno, lineno + 1) in the script, 0-based
            return (Span(hole.path, max(first, 1), hole.start),), (), {}
        gold = tuple(Span(hole.path, s, e) for s, e in windows(total, self.window, self.window_step)
                     if s <= hole.start and e >= first)
        return gold, (), {}
