"""The fusion protocol: named ranked lists (one per leg, or per leg and query variant) in, one
ranked list out; and the leg weights every fusion method reads the same way."""
from __future__ import annotations

from typing import Mapping, Protocol, runtime_checkable

from retrievers.index import Hit


@runtime_checkable
class Fusion(Protocol):
    """``fuse(lists, top_k)``: at most ``top_k`` hits, scores non-increasing, ties by id;
    ``weight(name)`` of a list, where 0 means the pipeline does not run that leg."""

    def weight(self, name: str) -> float: ...

    def fuse(self, lists: Mapping[str, list[Hit]], top_k: int) -> list[Hit]: ...


def leg_weight(name: str, weights: Mapping[str, float], dense_weight: float | None) -> float:
    """The weight of list ``name`` (``dense@q2`` is the dense list of the second query variant):
    ``dense_weight`` w gives {dense: w, sparse: 1 - w}; otherwise ``weights``, 1.0 when unnamed."""
    base = name.split("@", 1)[0]
    if dense_weight is not None and base in ("sparse", "dense"):
        return dense_weight if base == "dense" else 1.0 - dense_weight
    return float(weights.get(name, weights.get(base, 1.0)))


def check_dense_weight(dense_weight: float | None) -> None:
    if dense_weight is not None and not 0.0 <= dense_weight <= 1.0:
        raise ValueError(f"fusion.dense_weight must be in [0, 1], got {dense_weight}")
