"""``precision@k``: hits over k, k itself even past the ranking's end (ranx ``precision``)."""
from hermes_eval.judge.measures.query_view import QueryView


def precision(v: QueryView, k: int) -> float:
    k = k or len(v.gains)
    if k == 0 or not v.n_relevant:
        return 0.0
    return v.hits(v.cut(k)) / k
