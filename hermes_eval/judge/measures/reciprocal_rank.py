"""``mrr@k``: one over the rank of the first relevant document in the top k (ranx ``mrr``)."""
from hermes_eval.judge.measures.query_view import QueryView


def reciprocal_rank(v: QueryView, k: int) -> float:
    if not v.n_relevant:
        return 0.0
    for i, g in enumerate(v.gains[:v.cut(k)]):
        if g:
            return 1 / (i + 1)
    return 0.0
