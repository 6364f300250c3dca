"""``map@k``: precision at each relevant rank in the top k, summed over all relevant documents
(trec_eval's ``map``/``map_cut``, ranx ``map``)."""
from hermes_eval.judge.measures.query_view import QueryView


def average_precision(v: QueryView, k: int) -> float:
    if not v.n_relevant:
        return 0.0
    total, found = 0.0, 0
    for r, g in enumerate(v.gains[:v.cut(k)]):
        if g:
            found += 1
            total += found / (r + 1)
    return total / v.n_relevant
