"""Per-repository and per-language breakdowns, the queries that moved most, and hygiene figures of a board."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import pandas as pd

from hermes_eval.judge.bootstrap import summarize
from hermes_eval.judge.strata import COLUMN_PREFIX
from hermes_eval.record.results import HYGIENE_PREFIX
from hermes_eval.report.board_run import TOP1, BoardRun
from hermes_eval.report.options import NOTABLE_QUERY_CHARS

NO_REPO = "(none)"
# per_query.parquet columns a board breaks down by -> the heading's word
STRATA = {"repo": "repository", "language": "language"}


@dataclass(frozen=True)
class RepoTable:
    """Mean of one metric per stratum (columns: repository or language) for every arm (rows)."""

    metric: str
    repos: tuple[tuple[str, int], ...]  # (stratum, queries)
    rows: tuple[tuple[str, str, tuple[float | None, ...]], ...]  # (label, config hash, means)
    best: tuple[float | None, ...]
    by: str = "repo"  # the per_query column: "repo" or "language"
    notes: tuple[str, ...] = ()  # said under the table (e.g. which chunkers fell back for a language)
    cis: tuple[tuple[tuple[float, float] | None, ...], ...] = ()  # per row, per stratum: 95% bootstrap CI

    @property
    def title(self) -> str:
        return STRATA.get(self.by, self.by.removeprefix(COLUMN_PREFIX))


@dataclass(frozen=True)
class NotableQuery:
    """A query where an arm and the baseline disagree most."""

    qid: str
    query: str
    repo: str
    baseline: float
    arm: float
    baseline_top: str
    arm_top: str

    @property
    def delta(self) -> float:
        return self.arm - self.baseline


def repo_table(labels: dict[str, str], files: Mapping[str, BoardRun], metric: str, by: str = "repo",
               notes: tuple[str, ...] = (), seed: int = 0, n_resamples: int = 1000) -> RepoTable:
    """Means of ``metric`` per value of the per_query column ``by`` (``repo``, or ``language``: the
    language of the query's gold files), each with a 95% bootstrap CI (the records' own method);
    strata in descending query count (a declared stratum's, ``stratum_<name>``, by name: years in order).
    Runs written before a column existed have no value in it (their cells are empty)."""
    frames = {h: f.per_query for h, f in files.items()
              if not f.per_query.empty and metric in f.per_query and by in f.per_query}
    counts: dict[str, int] = {}
    for df in frames.values():
        for key, n in df[by].fillna(NO_REPO).replace("", NO_REPO).value_counts().items():
            counts[str(key)] = max(counts.get(str(key), 0), int(n))
    order = (lambda x: x[0]) if by.startswith(COLUMN_PREFIX) else (lambda x: (-x[1], x[0]))
    strata = tuple(sorted(counts.items(), key=order))
    rows, cis = [], []
    for h, label in labels.items():
        df = frames.get(h)
        if df is None:
            rows.append((label, h, tuple(None for _ in strata)))
            cis.append(tuple(None for _ in strata))
            continue
        groups = df.assign(**{by: df[by].fillna(NO_REPO).replace("", NO_REPO)}).groupby(by)[metric]
        summaries = {str(k): summarize(list(v.astype(float)), seed=seed, n_resamples=n_resamples) for k, v in groups}
        rows.append((label, h, tuple(summaries[r]["mean"] if r in summaries else None for r, _ in strata)))
        cis.append(tuple((summaries[r]["ci_low"], summaries[r]["ci_high"]) if r in summaries else None
                         for r, _ in strata))
    best = tuple(max((r[2][i] for r in rows if r[2][i] is not None), default=None) for i in range(len(strata)))
    return RepoTable(metric, strata, tuple(rows), best, by, notes, tuple(cis))


def cut(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def notable_queries(base: BoardRun, arm: BoardRun, metric: str, n: int) -> tuple[list[NotableQuery],
                                                                                list[NotableQuery]]:
    """(largest wins, largest losses) of ``arm`` over ``base`` on ``metric``."""
    a, b = base.per_query, arm.per_query
    if a.empty or b.empty or metric not in a or metric not in b or not (base.ranked_kept and arm.ranked_kept):
        return [], []  # a values-only run kept no query text nor first result
    m = a[["qid", "query", "repo", metric, TOP1]].merge(b[["qid", metric, TOP1]], on="qid", suffixes=("_a", "_b"))
    m["delta"] = m[f"{metric}_b"] - m[f"{metric}_a"]

    def pick(df: pd.DataFrame) -> list[NotableQuery]:
        return [NotableQuery(str(r.qid), cut(str(r.query), NOTABLE_QUERY_CHARS), str(r.repo or ""),
                             float(r[f"{metric}_a"]), float(r[f"{metric}_b"]), str(r[f"{TOP1}_a"]), str(r[f"{TOP1}_b"]))
                for _, r in df.iterrows()]

    wins = m[m["delta"] > 0].sort_values(["delta", "qid"], ascending=[False, True]).head(n)
    losses = m[m["delta"] < 0].sort_values(["delta", "qid"], ascending=[True, True]).head(n)
    return pick(wins), pick(losses)


def hygiene_rows(rows: pd.DataFrame) -> tuple[list[str], list[tuple[tuple, int]]]:
    """(columns, [(values, runs with them)]): the distinct hygiene results of a board's runs."""
    cols = [c for c in rows.columns if c.startswith(HYGIENE_PREFIX)]
    if not cols:
        return [], []
    counts = rows[cols].astype(str).value_counts(sort=False)
    return [c[len(HYGIENE_PREFIX):] for c in cols], [(tuple(k if isinstance(k, tuple) else (k,)), int(v))
                                                      for k, v in counts.items()]
