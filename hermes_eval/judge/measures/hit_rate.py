"""``hit_rate@k``: 1 when any relevant document is in the top k (ranx ``hit_rate``)."""
from hermes_eval.judge.measures.query_view import QueryView


def hit_rate(v: QueryView, k: int) -> float:
    if not v.n_relevant:
        return 0.0
    return 1.0 if v.hits(v.cut(k)) else 0.0
