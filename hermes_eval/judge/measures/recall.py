"""``recall@k``: hits in the top k over the relevant documents (ranx ``recall``)."""
from hermes_eval.judge.measures.query_view import QueryView


def recall(v: QueryView, k: int) -> float:
    if not v.n_relevant or not (k or len(v.gains)):
        return 0.0
    return v.hits(v.cut(k)) / v.n_relevant
