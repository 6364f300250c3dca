"""The leaderboard rows shared by the markdown and HTML renderers: one board per query set."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import pandas as pd

from hermes_eval.report.options import FAIR_METRICS, QUALITY, SAME_CHUNKER_METRICS, first_present
from hermes_eval.report.set_hygiene import SetHygiene, set_hygiene

SPARSE_ONLY = "sparse"  # record["legs"] of a BM25-only arm
SHORT_HASH = 8  # config-hash characters shown in tables (enough for --baseline)
# Shown when a board's runs use more than one embedder: the query-embed stage's latency, indexing
# throughput (documents encoded per second of encoding; empty when the vectors came from the
# cache), the model's size on disk and the job's peak memory.
EMBEDDER_COSTS = (("embed_p50_ms", "embed p50 ms", 2), ("embed_p95_ms", "embed p95 ms", 2),
                  ("texts_per_s", "texts/s", 1), ("model_mb", "model MB", 1), ("peak_rss_mb", "peak RSS MB", 0))


def embedders_differ(group: pd.DataFrame) -> bool:
    """More than one embedder among runs that use one (a BM25-only run never loads it)."""
    if "embedder" not in group.columns:
        return False
    uses = group[group["legs"].fillna("") != SPARSE_ONLY] if "legs" in group.columns else group
    return uses["embedder"].dropna().nunique() > 1


@dataclass(frozen=True)
class Board:
    """Finished runs of one query set, best first, with the arm the others are tested against."""

    queryset: str
    rows: pd.DataFrame
    sort_metric: str
    chunkers_differ: bool
    baseline: str  # config hash
    baseline_reason: str
    quality: tuple[str, ...]
    hygiene: SetHygiene
    embedders_differ: bool = False  # then the board shows the embedder and its costs

    @property
    def embedder_costs(self) -> tuple[tuple[str, str, int], ...]:
        """(column, heading, digits) of the embedder cost columns shown when embedders differ."""
        return EMBEDDER_COSTS if self.embedders_differ else ()

    @property
    def baseline_row(self) -> pd.Series:
        return self.rows[self.rows["config_hash"] == self.baseline].iloc[0]


def present(group: pd.DataFrame, names: tuple[str, ...]) -> list[str]:
    """Metric columns of ``names`` with a value for at least one row."""
    return [m for m in names if m in group.columns and group[m].notna().any()]


def chunking_fair(metric: str) -> bool:
    """A metric that compares arms of different chunkers: file level, or judged over lines."""
    return metric in FAIR_METRICS or metric.startswith("file_")


def sort_metric_for(group: pd.DataFrame, main_score: str | None = None) -> tuple[str, bool]:
    """(ranking metric, chunkers differ): the set's declared main score when the runs carry it and it
    is fair to them (a chunk-level score is not when chunkers differ), else a chunking-fair metric
    whenever chunkers differ."""
    differ = group["chunker"].nunique() > 1
    if main_score and present(group, (main_score,)) and (not differ or chunking_fair(main_score)):
        return main_score, differ
    pref = FAIR_METRICS if differ else SAME_CHUNKER_METRICS
    return first_present(pref, present(group, pref)), differ


def _matches(row: pd.Series, spec: str) -> bool:
    return (str(row["config_hash"]).startswith(spec) or row["run_name"] == spec
            or row["system"] == spec or f"{row['chunker']}/{row['system']}" == spec)


def choose_baseline(rows: pd.DataFrame, spec: str | None) -> tuple[str, str]:
    """(config hash, why) of the baseline among ``rows`` (already sorted best first)."""
    if spec:
        hit = rows[rows.apply(lambda r: _matches(r, spec), axis=1)]
        if not hit.empty:
            return str(hit.iloc[0]["config_hash"]), f"chosen with --baseline {spec}"
    note = f" (--baseline {spec} matched no run here)" if spec else ""
    sparse = rows[rows["legs"] == SPARSE_ONLY]
    if not sparse.empty:
        return str(sparse.iloc[0]["config_hash"]), "default: the best BM25-only arm" + note
    return str(rows.iloc[-1]["config_hash"]), "default: no BM25-only arm, so the lowest-ranked row" + note


def boards(df: pd.DataFrame, baseline: str | None = None, columns: tuple[str, ...] = (),
           main_scores: Mapping[str, str] | None = None,
           shown: Mapping[str, tuple[str, ...]] | None = None) -> list[Board]:
    """One board per query set, ranked by its sort metric (its record's main score when given and fair,
    ``sort_metric_for``; ties: nDCG@10, then system name); sets that leak come after every clean one.
    Its quality columns: the sort metric, the measures its record names (``shown``), then the others."""
    out = []
    ok = df[df["status"] == "ok"] if not df.empty and "status" in df.columns else df.iloc[0:0]
    for qs, group in (ok.groupby("queryset", sort=True) if not ok.empty else []):
        metric, differ = sort_metric_for(group, (main_scores or {}).get(str(qs)))
        keys = [metric] + [k for k in ("ndcg@10",) if k in group.columns and k != metric]
        rows = group.sort_values([*keys, "system", "chunker"], ascending=[False] * len(keys) + [True, True],
                                 na_position="last").reset_index(drop=True)
        chash, reason = choose_baseline(rows, baseline)
        out.append(Board(queryset=str(qs), rows=rows, sort_metric=metric, chunkers_differ=differ,
                         baseline=chash, baseline_reason=reason,
                         quality=tuple(dict.fromkeys([metric, *present(group, (shown or {}).get(str(qs), ())),
                                                      *present(group, QUALITY + tuple(columns))])),
                         hygiene=set_hygiene(rows), embedders_differ=embedders_differ(rows)))
    return sorted(out, key=lambda b: b.hygiene.leaking)


def failed(df: pd.DataFrame) -> pd.DataFrame:
    """Runs that did not finish, with their error."""
    if df.empty or "status" not in df.columns:
        return df
    return df[df["status"] != "ok"]


def fmt_ci(row: pd.Series, metric: str) -> str:
    """``mean [low, high]`` or an en dash when the run lacks the metric."""
    if metric not in row or pd.isna(row.get(metric)):
        return "–"
    return f"{row[metric]:.3f} [{row[f'{metric}_ci_low']:.3f}, {row[f'{metric}_ci_high']:.3f}]"


def cell_text(value) -> str:
    """Text of a cell; missing (None/NaN) is empty."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def fmt_num(value, digits: int = 1) -> str:
    """A number or an en dash."""
    try:
        if value is None or pd.isna(value):
            return "–"
        return f"{float(value):.{digits}f}"
    except (TypeError, ValueError):
        return "–"


def short_hash(config_hash: object) -> str:
    """The first characters of a config hash."""
    return str(config_hash)[:SHORT_HASH]
