"""``map@k`` and ``map_found@k`` of one query view: judge/average_precision.py's one function with the
``all_gold`` (trec_eval's ``map``/``map_cut``, ranx ``map``) and ``gold_found`` (BLIZZARD's, Gandhi et
al.'s) denominators."""
from hermes_eval.judge.average_precision import average_precision as _ap
from hermes_eval.judge.measures.query_view import QueryView


def _ranks(v: QueryView, k: int) -> list[int]:
    return [r + 1 for r, g in enumerate(v.gains[:v.cut(k)]) if g]


def average_precision(v: QueryView, k: int) -> float:
    return _ap(_ranks(v, k), v.n_relevant, "all_gold")


def average_precision_found(v: QueryView, k: int) -> float:
    return _ap(_ranks(v, k), v.n_relevant, "gold_found")
