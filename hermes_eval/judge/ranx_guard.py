"""A direct count of recall@k and reciprocal rank, checked against ranx's numba kernels on every
run: a stale or half-written numba cache (two processes compiling ranx at once in a fresh
virtualenv) would otherwise write wrong numbers into records without a sign."""
from __future__ import annotations

from typing import Iterable, Mapping

from hermes_eval.core.errors import UserError

# ranx's numba kernels live in its package's __pycache__ (*.nbi / *.nbc)
FIX = ("delete ranx's numba cache (`find .venv -path '*ranx*' -name '*.nb[ic]' -delete`) and run again; "
       "it recompiles on first use")


def direct(family: str, k: int, relevant: set[str], ranked: Iterable[str]) -> float:
    """recall@k or mrr@k of one query, counted without ranx (``relevant``: judged > 0)."""
    top = list(ranked)[:k]
    if not relevant:
        return 0.0
    if family == "recall":
        return sum(d in relevant for d in top) / len(relevant)
    if family == "mrr":
        return next((1.0 / i for i, d in enumerate(top, start=1) if d in relevant), 0.0)
    raise ValueError(f"no direct count for {family!r}")


def check(qrels: Mapping[str, Mapping[str, int]], ranked: Mapping[str, Iterable[str]],
          scores: Mapping[str, Mapping[str, float]], tolerance: float = 1e-9) -> None:
    """Raise when a recall or mrr value in ``scores`` (metric -> qid -> value, as ranx gave it)
    differs from the direct count over ``ranked`` (qid -> documents in rank order)."""
    for name, per_q in scores.items():
        family, _, k = name.partition("@")
        if family not in ("recall", "mrr") or not k.isdigit():
            continue
        for qid, got in per_q.items():
            relevant = {d for d, r in qrels.get(qid, {}).items() if r > 0}
            want = direct(family, int(k), relevant, ranked.get(qid, ()))
            if abs(got - want) > tolerance:
                raise UserError(f"ranx computed {name}={got:.6f} for query {qid!r} but a direct count gives "
                                f"{want:.6f}: {FIX}")
