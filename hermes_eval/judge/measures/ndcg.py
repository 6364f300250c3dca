"""``ndcg@k``: Järvelin's DCG (grade over log2(rank + 1)) over the ideal DCG (ranx ``ndcg``)."""
from math import log2
from typing import Sequence

from hermes_eval.judge.measures.query_view import QueryView


def dcg(gains: Sequence[int], k: int) -> float:
    """Summed one term at a time from the top, as ranx's kernel sums."""
    total = 0.0
    for i in range(k):
        total += gains[i] / log2(i + 2)
    return total


def ndcg(v: QueryView, k: int) -> float:
    if not v.n_relevant:
        return 0.0
    ideal = dcg(v.ideal, min(k, v.n_relevant) if k else v.n_relevant)
    return dcg(v.gains, v.cut(k)) / (ideal or 1.0)
