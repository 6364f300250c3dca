"""Every ``ranx.fuse`` method, with its score normalisation, behind the fusion interface.

Each leg's hits become a one-query ranx ``Run``; ``ranx.fuse`` normalises (``norm``) and fuses
them; the fused list is ordered by score, ties by id. Weighted methods take their weights from
``weights`` / ``dense_weight`` unless ``params.weights`` is given. Trained methods need the
params their ``*_train`` function returns: :mod:`hermes_eval.stages.tuning` fits them on a train
split (``strategy: ranx``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from retrievers.fusion.base import check_dense_weight, leg_weight
from retrievers.fusion.condorcet_order import fuse_in_id_order
from retrievers.fusion.fixed_width_ids import FixedWidthIds
from retrievers.index import Hit, by_score_then_id
from retrievers.identity.declare import declare


@dataclass(frozen=True)
class RanxMethod:
    """What a ranx fusion method needs besides the runs."""

    weighted: bool = False  # takes ``weights``, one per run
    required: tuple[str, ...] = ()  # params without a default
    trained: bool = False  # its required params come from training on qrels
    # ranx orders its candidates by the ids' string hashes (PYTHONHASHSEED, a set's order) before a vote that
    # is not a total order: fused here with the candidates in id order (retrievers/fusion/condorcet_order)
    hash_ordered: bool = False


METHODS: dict[str, RanxMethod] = {
    "rrf": RanxMethod(), "isr": RanxMethod(), "log_isr": RanxMethod(), "logn_isr": RanxMethod(),
    "rbc": RanxMethod(required=("phi",)), "bordafuse": RanxMethod(), "condorcet": RanxMethod(hash_ordered=True),
    "anz": RanxMethod(), "gmnz": RanxMethod(required=("gamma",)), "max": RanxMethod(),
    "med": RanxMethod(), "min": RanxMethod(), "mnz": RanxMethod(), "sum": RanxMethod(),
    "wsum": RanxMethod(weighted=True), "mixed": RanxMethod(weighted=True),
    "wmnz": RanxMethod(weighted=True), "w_bordafuse": RanxMethod(weighted=True),
    "w_condorcet": RanxMethod(weighted=True, hash_ordered=True),
    "bayesfuse": RanxMethod(required=("log_odds",), trained=True),
    "mapfuse": RanxMethod(required=("map_scores",), trained=True),
    "posfuse": RanxMethod(required=("probs",), trained=True),
    "probfuse": RanxMethod(required=("probs",), trained=True),
    "segfuse": RanxMethod(required=("probs",), trained=True),
    "slidefuse": RanxMethod(required=("probs", "w"), trained=True),
}
NORMS = (None, "min-max", "max", "sum", "zmuv", "rank", "borda", "min-max-inverted")
# params that hold one entry per run, in the order of the fused lists
PER_RUN = ("weights", "log_odds", "map_scores", "probs")
QID = "q"


@declare("retrievers.fusion_ranx.RanxFusion", version=2)  # 2: condorcet candidates in id order
@dataclass(frozen=True)
class RanxFusion:
    """``ranx.fuse(method, norm, params)`` over one query's leg lists, ties broken by id."""

    method: str = "rrf"
    norm: str | None = "min-max"
    params: Mapping[str, Any] = field(default_factory=dict)
    weights: Mapping[str, float] = field(default_factory=dict)
    dense_weight: float | None = None

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown ranx fusion method {self.method!r}; use one of {sorted(METHODS)}")
        if self.norm not in NORMS:
            raise ValueError(f"unknown ranx norm {self.norm!r}; use one of {NORMS}")
        check_dense_weight(self.dense_weight)
        if not METHODS[self.method].trained:
            self.check_params()

    def check_params(self) -> None:
        """ValueError unless every param the method needs is set (trained ones are checked at
        fuse time, so a config can name them before training fills them in)."""
        missing = [p for p in METHODS[self.method].required if p not in self.params]
        if missing:
            hint = (" (a trained method: fit it on a train split with fusion_tuning.enabled=true "
                    "fusion_tuning.strategy=ranx)" if METHODS[self.method].trained else "")
            raise ValueError(f"ranx fusion {self.method!r} needs params {missing}{hint}")

    def weight(self, name: str) -> float:
        """A leg's weight (1.0 unless configured); 0 means the pipeline does not run that leg."""
        return leg_weight(name, self.weights, self.dense_weight)

    def run_params(self, names: list[str], kept: list[int]) -> dict[str, Any]:
        """The ``params`` ranx gets for the lists ``names`` (those at positions ``kept`` fused)."""
        params = dict(self.params)
        if METHODS[self.method].weighted and "weights" not in params:
            params["weights"] = [self.weight(n) for n in names]
        for key in PER_RUN:
            if key in params and len(params[key]) == len(names):
                params[key] = [params[key][i] for i in kept]
        return params

    def fuse(self, lists: Mapping[str, list[Hit]], top_k: int) -> list[Hit]:
        from ranx import Run, fuse

        self.check_params()
        names = [n for n in lists if self.weight(n) != 0]
        kept = [i for i, n in enumerate(names) if lists[n]]
        if not kept:
            return []
        if len(kept) == 1:  # ranx fuses two runs or more; one list is its own fusion
            return by_score_then_id(list(dict(lists[names[kept[0]]]).items()))[:top_k]
        legs = {names[i]: {QID: {doc: float(s) for doc, s in lists[names[i]]}} for i in kept}
        ids = FixedWidthIds.of(*legs.values())  # tokens sort as the ids: the same candidate order
        runs = [Run(ids.rename(leg), name=name) for name, leg in legs.items()]
        params = self.run_params(names, kept)
        if METHODS[self.method].hash_ordered:
            fused = fuse_in_id_order(runs, self.norm, params.get("weights"))
        else:
            fused = fuse(runs, norm=self.norm, method=self.method, params=params)
        return by_score_then_id([(doc, float(s)) for doc, s in ids.restore(fused[QID]).items()])[:top_k]
