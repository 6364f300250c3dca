"""Recall@k curves from run.trec + qrels, at chunk and file level."""
from __future__ import annotations

from typing import Mapping, Sequence

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.measures import measure_values
from hermes_eval.report.board_run import BoardRun
from hermes_eval.report.options import RECALL_KS


def recall_curve(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, Sequence[str]],
                 n_queries: int, ks: Sequence[int] = RECALL_KS) -> list[float]:
    """Mean recall@k for each k over ``n_queries`` (queries without a judgment score 0)."""
    judged = sorted(q for q in qrels if qrels[q])
    if not judged or n_queries <= 0:
        return [0.0 for _ in ks]
    metrics = [f"recall@{k}" for k in ks]
    scores = measure_values({q: qrels[q] for q in judged},
                            {q: ordered_scores(rankings.get(q, [])) for q in judged}, metrics)
    return [sum(scores[m]) / n_queries for m in metrics]


def run_curves(files: BoardRun, ks: Sequence[int] = RECALL_KS) -> dict[str, list[float]]:
    """{"chunk": [...], "file": [...]} recall@k for one run."""
    n = len(files.per_query) or len(files.qrels)
    return {"chunk": recall_curve(files.qrels, files.rankings, n, ks),
            "file": recall_curve(files.file_qrels, files.file_rankings, n, ks)}
