"""What a board reads of one run: its per-query table (the columns a board shows, a query's text clipped
as the board shows it), each stage's per-query latencies (sorted: boards draw their distribution) and
its rankings and qrels as far as any board figure looks at them. A run folder
(:class:`~hermes_eval.record.folder.RunFiles`) and the committed results (``report/board_results.py``)
are both read into this one form, so a board built from either is the same page.

A ranking keeps its first :data:`~hermes_eval.report.options.KEEP_TOP` ids and, below them, only the
positions of the documents its qrels judge (and of any id ranked twice); every other position holds a
placeholder that no qrels name. Rank metrics (ranx's recall@k, nDCG@k, MRR, hits), a query's first gold
rank and its miss cause depend only on those positions, so they come out the same as from the full
ranking (``tests/hermes_eval/report/test_board_run.py`` checks it on real runs)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Collection, Mapping, Sequence

import numpy as np
import pandas as pd

from hermes_eval.record.folder import RunFiles, metric_values
from hermes_eval.report.gold_code import gold_spans
from hermes_eval.report.head_to_head import BUDGET_METRIC
from hermes_eval.judge.strata import COLUMN_PREFIX
from hermes_eval.report.options import (EXPLORER_QUERY_CHARS, FAIR_METRICS, KEEP_TOP, QUALITY,
                                        SAME_CHUNKER_METRICS, BoardLimits, ReportSettings)

PLACEHOLDER = "\x00"  # prefix of an unjudged position below the kept top (no chunk id or path holds it)
# per_query.parquet columns a board reads besides metrics (per-stage latencies, ``ms_<stage>``, apart)
TEXT_COLUMNS = ("qid", "query", "repo", "language", "kind", "hygiene_flags", "leak_places")
TOP1 = "top1"  # the first result id (from per_query's ``top10``), shown beside the queries that moved most
Span = tuple[str, int, int]


def board_metrics(settings: ReportSettings) -> frozenset[str]:
    """Every metric whose per-query values a board can read under ``settings``: what may rank it or be
    shown (paired tests, tied groups, strata), the budget metric of the miss table, the anchors' metrics."""
    return frozenset((*QUALITY, *FAIR_METRICS, *SAME_CHUNKER_METRICS, *settings.columns, BUDGET_METRIC,
                      *(a.metric for a in settings.anchors), *(m for _, m in settings.main_scores)))


def values_metrics(settings: ReportSettings, queryset: str) -> frozenset[str]:
    """The per-query metrics a values-only run of ``queryset`` keeps: those its markdown table shows (all of
    QUALITY where its record names none), what may rank it and its anchors' metrics (the columns the HTML
    page adds for other sets get no mark for it)."""
    shown, main = dict(settings.shown), dict(settings.main_scores)
    ranking = (main[queryset],) if queryset in main else (*FAIR_METRICS, *SAME_CHUNKER_METRICS)
    return frozenset((*shown.get(queryset, QUALITY), *ranking,
                      *(a.metric for a in settings.anchors if queryset in a.querysets)))


def elide(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, its middle replaced by a marker when longer."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n… [{len(text) - 2 * half} characters left out] …\n{text[-half:]}"


def _top1(cell: object) -> str:
    try:
        top = json.loads(cell) if isinstance(cell, str) else list(cell)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""
    return str(top[0]) if top else ""


def board_table(per_query: pd.DataFrame, metrics: Collection[str],
                query_chars: int = EXPLORER_QUERY_CHARS) -> pd.DataFrame:
    """The columns of ``per_query`` a board reads, in their order: text and strata and the ``metrics`` it
    has; the query text clipped to ``query_chars`` (the board's :class:`BoardLimits`) as the board shows
    it; :data:`TOP1` from ``top10``."""
    keep = [c for c in per_query.columns if c in TEXT_COLUMNS or c in metrics or c.startswith(COLUMN_PREFIX)]
    out = per_query[keep].copy()
    if "query" in out.columns:
        out["query"] = [elide(t, query_chars) if isinstance(t, str) else t for t in out["query"]]
    if "top10" in per_query.columns:
        out[TOP1] = [_top1(c) for c in per_query["top10"]]
    return out


@dataclass(frozen=True)
class Ranked:
    """One query's ranking as boards read it: the ids at the top, and below them the judged positions."""

    top: tuple[str, ...]
    deep: tuple[tuple[int, str], ...]  # (0-based position at or below len(top), id)
    n: int  # the ranking's length

    @classmethod
    def of(cls, ranking: Sequence[str], judged: Collection[str], keep: int) -> "Ranked":
        """``ranking`` with its first ``keep`` ids and, below, every id in ``judged`` or ranked twice."""
        twice = {d for d, c in Counter(ranking).items() if c > 1}
        deep = tuple((i, d) for i, d in enumerate(ranking[keep:], start=keep) if d in judged or d in twice)
        return cls(tuple(ranking[:keep]), deep, len(ranking))

    def ranking(self) -> list[str]:
        """The ranking with a placeholder at each position not kept."""
        out = [*self.top, *(f"{PLACEHOLDER}{i}" for i in range(len(self.top), self.n))]
        for i, d in self.deep:
            out[i] = d
        return out


@dataclass(frozen=True, eq=False)
class BoardRun:
    """One run as a board reads it (the attributes a board used to read from the run folder's files)."""

    per_query: pd.DataFrame  # board_table of per_query.parquet (empty: none)
    ranked: Mapping[str, Ranked]  # qid -> chunk ranking
    file_ranked: Mapping[str, Ranked]  # qid -> file ranking (files in the order of their first chunk)
    qrels: Mapping[str, Mapping[str, int]]
    file_qrels: Mapping[str, Mapping[str, int]]
    gold: Mapping[str, tuple[Span, ...]]  # qid -> gold line spans (path, first, last)
    latency: Mapping[str, np.ndarray] = field(default_factory=dict)  # stage -> per-query ms, sorted
    present: bool = True  # the run wrote per-query results (per_query.parquet exists)
    # kept as per-query values only (:func:`values_only`): no rankings, qrels, gold, text or latency samples
    values_only: bool = False

    def exists(self) -> bool:
        return self.present

    @property
    def ranked_kept(self) -> bool:
        """Whether the board kept this run's rankings (curves, misses and the explorer read them)."""
        return self.present and not self.values_only

    @cached_property
    def rankings(self) -> dict[str, list[str]]:
        return {q: r.ranking() for q, r in self.ranked.items()}

    @cached_property
    def file_rankings(self) -> dict[str, list[str]]:
        return {q: r.ranking() for q, r in self.file_ranked.items()}

    def values(self, metric: str) -> pd.Series:
        """Per-query values of ``metric`` indexed by qid (empty when absent)."""
        return metric_values(self.per_query, metric)

    def stage_ms(self) -> dict[str, pd.Series]:
        """stage -> its per-query milliseconds, sorted (the order of the queries is not kept)."""
        return {stage: pd.Series(ms, dtype=float) for stage, ms in self.latency.items()}


def from_folder(files: RunFiles, metrics: Collection[str], limits: BoardLimits = BoardLimits()) -> BoardRun:
    """What a board reads of a run folder (the ``metrics`` it keeps: :func:`board_metrics`; its query text
    and latencies as ``limits`` clip and round them)."""
    qrels, file_qrels = files.qrels, files.file_qrels
    return BoardRun(
        per_query=board_table(files.per_query, metrics, limits.query_chars),
        ranked={q: Ranked.of(r, qrels.get(q, {}), KEEP_TOP) for q, r in files.rankings.items()},
        file_ranked={q: Ranked.of(r, file_qrels.get(q, {}), 0) for q, r in files.file_rankings.items()},
        qrels=qrels, file_qrels=file_qrels,
        gold={q: tuple(gold_spans(lines)) for q, lines in files.line_qrels.items()},
        latency={stage: np.sort(limits.latency(ms.to_numpy(dtype=float))) for stage, ms in files.stage_ms().items()},
        present=files.exists())


# what a values-only run keeps of its per-query table besides the metrics: the query id and what groups it
VALUES_COLUMNS = ("qid", "repo", "language", "kind")


def values_only(run: BoardRun, metrics: Collection[str]) -> BoardRun:
    """``run`` as a board keeps it when only its per-query values matter (``leaderboard --values-only``):
    the ``metrics`` it has, its query ids, repository, language and strata; no rankings, qrels, gold
    spans, query text or latency samples. Its row, CIs and p50/p95 come from its record as any run's do;
    its marks, tied group, strata and hybrid verdict pair these values with the other arms'."""
    df = run.per_query
    keep = [c for c in df.columns if c in VALUES_COLUMNS or c in metrics or c.startswith(COLUMN_PREFIX)]
    return BoardRun(per_query=df[keep].copy(), ranked={}, file_ranked={}, qrels={}, file_qrels={}, gold={},
                    latency={}, present=run.present, values_only=True)


__all__ = ["BoardRun", "PLACEHOLDER", "Ranked", "VALUES_COLUMNS", "board_metrics", "board_table", "elide",
           "from_folder", "values_metrics", "values_only"]
