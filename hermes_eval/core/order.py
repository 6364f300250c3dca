"""Ties: every evaluator is handed strictly decreasing scores derived from the pipeline's order."""
from __future__ import annotations

from typing import Sequence


def ordered_scores(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores from the pipeline's order, so every evaluator sees that order."""
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}
