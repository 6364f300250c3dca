"""Measure names as ranx writes them (``recall@10``, ``map``, ``ndcg@10-l2``; and ``map_found@10``) -> per-query values."""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from hermes_eval.judge.measures.average_precision import average_precision, average_precision_found
from hermes_eval.judge.measures.hit_rate import hit_rate
from hermes_eval.judge.measures.hits import hits
from hermes_eval.judge.measures.ndcg import ndcg
from hermes_eval.judge.measures.precision import precision
from hermes_eval.judge.measures.query_view import QueryView, ranked, view
from hermes_eval.judge.measures.recall import recall
from hermes_eval.judge.measures.reciprocal_rank import reciprocal_rank

Measure = Callable[[QueryView, int], float]

MEASURES: dict[str, Measure] = {
    "hits": hits, "hit_rate": hit_rate, "precision": precision, "recall": recall,
    "mrr": reciprocal_rank, "map": average_precision, "ndcg": ndcg,
    "map_found": average_precision_found,  # not ranx's: BLIZZARD's AP (judge/average_precision.py)
}


def parse(name: str) -> tuple[Measure, int, int]:
    """``family[@k][-lN]`` -> (measure, k, relevance level), as ranx reads the name (k 0: whole ranking)."""
    body, _, level = name.partition("-l")
    family, _, k = body.partition("@")
    if family not in MEASURES or not (k.isdigit() or k == "") or not (level.isdigit() or level == ""):
        raise ValueError(f"measure {name!r}: use FAMILY[@K][-lLEVEL] with FAMILY one of {', '.join(MEASURES)}")
    return MEASURES[family], int(k or 0), int(level or 1)


def measure_values(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Mapping[str, float]],
                   names: Sequence[str]) -> dict[str, list[float]]:
    """Each measure's per-query values in ``qrels``' query order; ``run`` maps a query to document
    scores (a missing or empty one retrieved nothing and scores 0)."""
    parsed = {n: parse(n) for n in names}
    out: dict[str, list[float]] = {n: [] for n in names}
    for qid, qrel in qrels.items():
        order = ranked(run.get(qid) or {})
        views: dict[int, QueryView] = {}
        for n, (measure, k, level) in parsed.items():
            v = views.get(level) or views.setdefault(level, view(qrel, order, level))
            out[n].append(measure(v, k))
    return out
