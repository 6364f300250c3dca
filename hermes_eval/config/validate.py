"""Checks on the composed config that Hydra's schema-free YAML cannot make: one-line errors
naming the field and the fix, raised before anything runs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from omegaconf import DictConfig

from hermes_eval.core.errors import UserError


@dataclass(frozen=True)
class Check:
    field: str
    ok: Callable[[Any], bool]
    need: str


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


CHECKS = (
    Check("seed", _int, "an integer"),
    Check("warmup", lambda v: _int(v) and v >= 0, "an integer >= 0"),
    Check("bootstrap", lambda v: _int(v) and v >= 0, "an integer >= 0"),
    Check("exclude_overfetch", lambda v: _int(v) and v >= 0, "an integer >= 0"),
    Check("depths.k", lambda v: _int(v) and v > 0, "a positive integer"),
    Check("depths.sparse_top_k", lambda v: _int(v) and v > 0, "a positive integer"),
    Check("depths.dense_top_k", lambda v: _int(v) and v > 0, "a positive integer"),
    Check("depths.fused_top_k", lambda v: _int(v) and v > 0, "a positive integer"),
    Check("fusion.k", lambda v: v is None or (_num(v) and v >= 0), "a number >= 0"),
    Check("fusion.dense_weight", lambda v: v is None or (_num(v) and 0 <= v <= 1), "a number in [0, 1]"),
    Check("hygiene.self_retrieval_warn", lambda v: _num(v) and 0 <= v <= 1, "a number in [0, 1]"),
)


def _get(cfg: DictConfig, dotted: str) -> tuple[bool, Any]:
    node: Any = cfg
    for part in dotted.split("."):
        if not isinstance(node, DictConfig) or part not in node:
            return False, None
        node = node[part]
    return True, node


def validate(cfg: DictConfig) -> None:
    """Raise UserError on the first field that is present but wrong."""
    for c in CHECKS:
        present, value = _get(cfg, c.field)
        if present and not c.ok(value):
            raise UserError(f"config field {c.field} = {value!r} is invalid: set it to {c.need}")
    legs = [leg for leg in ("sparse", "dense") if cfg.retriever.get(leg)]
    if not legs and not cfg.retriever.get("service"):
        raise UserError(f"retriever {cfg.retriever.get('name')!r} has no sparse, dense or service leg: "
                        f"pick a retriever from conf/retriever/")
    weights = cfg.fusion.get("weights") or {}
    known = set(legs) | {"sparse", "dense"}
    for name in weights:
        if name.split("@", 1)[0] not in known:
            raise UserError(f"config field fusion.weights.{name} names no leg of retriever "
                            f"{cfg.retriever.get('name')!r}: use one of {sorted(known)}")
