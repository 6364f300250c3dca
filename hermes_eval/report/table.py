"""The leaderboard rows shared by the markdown and HTML renderers."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

QUALITY = ("recall@10", "ndcg@10", "mrr@10", "file_recall@10", "line_coverage@10")


@dataclass(frozen=True)
class Board:
    queryset: str
    rows: pd.DataFrame  # finished runs, best first
    sort_metric: str
    chunkers_differ: bool


def boards(df: pd.DataFrame) -> list[Board]:
    """One board per query set; when chunkers differ, rank by a chunking-fair metric."""
    out = []
    ok = df[df["status"] == "ok"] if not df.empty else df
    for qs, group in (ok.groupby("queryset", sort=True) if not ok.empty else []):
        differ = group["chunker"].nunique() > 1
        metric = "file_recall@10" if differ else "ndcg@10"
        rows = group.sort_values([metric, "ndcg@10", "system"], ascending=[False, False, True])
        out.append(Board(queryset=qs, rows=rows, sort_metric=metric, chunkers_differ=differ))
    return out


def failed(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["status"] != "ok"] if not df.empty else df


def fmt_ci(row: pd.Series, metric: str) -> str:
    if pd.isna(row.get(metric)):
        return "–"
    return f"{row[metric]:.3f} [{row[f'{metric}_ci_low']:.3f}, {row[f'{metric}_ci_high']:.3f}]"
