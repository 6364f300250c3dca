"""``hits@k``: relevant documents in the top k (ranx ``hits``)."""
from hermes_eval.judge.measures.query_view import QueryView


def hits(v: QueryView, k: int) -> float:
    if not v.n_relevant:
        return 0.0
    return float(v.hits(v.cut(k)))
