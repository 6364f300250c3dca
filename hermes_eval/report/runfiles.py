"""Read what a run directory holds beside its record: TREC run/qrels and per-query values."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pandas as pd

RUN_FILE = "run.trec"
QRELS_FILE = "qrels.trec"
FILE_QRELS_FILE = "qrels.file.trec"
PER_QUERY_FILE = "per_query.parquet"
FILE_PREFIX = "file_"  # file-level metric names: file_<ranx metric>


def untrec(token: str) -> str:
    """Inverse of ``hermes_eval.trec.trec_id``."""
    return token.replace("%09", "\t").replace("%20", " ").replace("%25", "%")


def read_run(path: Path) -> dict[str, list[str]]:
    """qid -> document ids in rank order."""
    rows: dict[str, list[tuple[int, str]]] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            rows.setdefault(untrec(parts[0]), []).append((int(parts[3]), untrec(parts[2])))
    return {q: [d for _, d in sorted(v)] for q, v in rows.items()}


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """qid -> {document id: relevance}."""
    out: dict[str, dict[str, int]] = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.setdefault(untrec(parts[0]), {})[untrec(parts[2])] = int(parts[3])
    return out


def chunk_path(chunk_id: str) -> str:
    """``path:start-end`` -> ``path``."""
    return chunk_id.rsplit(":", 1)[0] if ":" in chunk_id else chunk_id


def file_rankings(rankings: dict[str, list[str]]) -> dict[str, list[str]]:
    """Files in the order of their first chunk (as the runner scores file-level metrics)."""
    return {q: list(dict.fromkeys(chunk_path(c) for c in r)) for q, r in rankings.items()}


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

    def values(self, metric: str) -> pd.Series:
        """Per-query values of ``metric`` indexed by qid (empty when absent)."""
        df = self.per_query
        if df.empty or metric not in df.columns:
            return pd.Series(dtype=float)
        return df.set_index("qid")[metric].astype(float)

    def stage_ms(self) -> dict[str, pd.Series]:
        """stage -> per-query milliseconds, from the ``ms_<stage>`` columns."""
        df = self.per_query
        return {c[3:]: df[c].astype(float) for c in df.columns if c.startswith("ms_")}
