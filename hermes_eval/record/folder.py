"""Read what a run directory holds beside its record: TREC run/qrels and per-query values."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pandas as pd

from hermes_eval.judge.relevance import file_rankings
from hermes_eval.record.trec import read_qrels, read_run

RUN_FILE = "run.trec"
QRELS_FILE = "qrels.trec"
FILE_QRELS_FILE = "qrels.file.trec"
LINE_QRELS_FILE = "qrels.line.trec"
PER_QUERY_FILE = "per_query.parquet"


def metric_values(per_query: pd.DataFrame, metric: str) -> pd.Series:
    """Per-query values of ``metric`` from a per-query table, indexed by qid (empty when absent)."""
    if per_query.empty or metric not in per_query.columns:
        return pd.Series(dtype=float)
    return per_query.set_index("qid")[metric].astype(float)


@dataclass(frozen=True)
class RunFiles:
    """Lazy access to one run directory's files."""

    run_dir: Path

    def exists(self) -> bool:
        return (self.run_dir / PER_QUERY_FILE).exists()

    @cached_property
    def per_query(self) -> pd.DataFrame:
        path = self.run_dir / PER_QUERY_FILE
        return pd.read_parquet(path) if path.exists() else pd.DataFrame()

    @cached_property
    def rankings(self) -> dict[str, list[str]]:
        path = self.run_dir / RUN_FILE
        return read_run(path) if path.exists() else {}

    @cached_property
    def file_rankings(self) -> dict[str, list[str]]:
        return file_rankings(self.rankings)

    @cached_property
    def qrels(self) -> dict[str, dict[str, int]]:
        path = self.run_dir / QRELS_FILE
        return read_qrels(path) if path.exists() else {}

    @cached_property
    def file_qrels(self) -> dict[str, dict[str, int]]:
        path = self.run_dir / FILE_QRELS_FILE
        return read_qrels(path) if path.exists() else {}

    @cached_property
    def line_qrels(self) -> dict[str, dict[str, int]]:
        """qid -> {``path:line``: 1} for every gold line."""
        path = self.run_dir / LINE_QRELS_FILE
        return read_qrels(path) if path.exists() else {}

    def values(self, metric: str) -> pd.Series:
        """Per-query values of ``metric`` indexed by qid (empty when absent)."""
        return metric_values(self.per_query, metric)

    def stage_ms(self) -> dict[str, pd.Series]:
        """stage -> per-query milliseconds, from the ``ms_<stage>`` columns."""
        df = self.per_query
        return {c[3:]: df[c].astype(float) for c in df.columns if c.startswith("ms_")}
