"""The metric registry: every number a run records, declared once with its level and meaning.

Scoring, reports, decisions and the gate look metrics up here; no code parses a metric's level,
cut-off or ranx name back out of its string.

Levels:
- ``chunk``: ranx over chunk ids (relevant = overlaps gold, not exclude); only comparable between
  runs with the same chunking.
- ``file``: ranx over files in the order of their first chunk.
- ``module``: localization over modules in the order of their first chunk, as LocAgent ranks them:
  a chunk's module is its file and the top-level definition holding it (``path:Outer`` for the
  symbol ``Outer/method``); a chunk without a symbol is its own module. Relevant = the modules of
  the relevant chunks (with the function chunker: the classes and functions the patch edits).
- ``line``: share of gold lines inside the top-k chunks.
- ``budget``: gold lines / spans inside the chunks packed into a token budget (chunking-fair).

Localization families (SWE-bench papers report these; judge/localization.py), at chunk and file
level: ``hit@k`` any gold in the top k, ``acc@k`` LocAgent's Acc@k (min(|gold|, k) gold items in
the top k), ``acc_all@k`` every gold item in the top k; 1 or 0 per query.

Bug-localization families (Ye et al., BLIZZARD, Gandhi et al. report these; judge/average_precision.py),
at file level over the whole ranking (as deep as the run retrieves; ``k`` 0 and no ``@k`` in the name)
or its top k: ``file_mrr`` (trec_eval ``recip_rank``), ``file_map`` and ``file_map@10`` (trec_eval's
AP: divided by the number of gold files), ``file_map_found`` and ``file_map_found@10`` (BLIZZARD's and
Gandhi et al.'s AP: divided by the gold files the ranking retrieves). The field's Accuracy@k (any gold
file in the top k) is ``file_hit@k``: ``file_acc@k`` is LocAgent's stricter Acc@k.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hermes_eval.core.errors import UserError

Level = Literal["chunk", "file", "module", "line", "budget"]
LEVELS: tuple[Level, ...] = ("chunk", "file", "module", "line", "budget")
# the levels that do not depend on how the corpus was chunked
CHUNKING_FAIR: frozenset[Level] = frozenset({"file", "line", "budget"})


@dataclass(frozen=True)
class Metric:
    """One recorded metric: ``name`` is the key in records, per-query tables and configs."""

    name: str
    level: Level
    k: int  # rank cut-off (0: the whole ranking), or the token budget for budget metrics
    family: str  # recall, ndcg, mrr, map, map_found, line_coverage, budget_line_coverage, budget_recall, hit,
    # acc, acc_all
    ranx: str | None = None  # the ranx metric computing it (chunk and file level)
    higher_is_better: bool = True

    @property
    def chunking_fair(self) -> bool:
        """Comparable between runs whose chunkers differ."""
        return self.level in CHUNKING_FAIR


RANX_FAMILIES = ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")
LOCALIZATION_FAMILIES = ("hit", "acc", "acc_all")
LOCALIZATION_KS = (1, 3, 5, 10)  # LocAgent: files at 1/3/5, functions and modules at 5/10
MODULE_KS = (5, 10)
COVERAGE_KS = (5, 10)
# bug localization at file level: the whole ranking (0) and the top 10 (BLIZZARD's MAP@10)
AP_KS = (0, 10)
AP_FAMILIES = ("map", "map_found")
BUDGETS: dict[str, int] = {"1k": 1000, "2k": 2000, "4k": 4000}


def _declare() -> dict[str, Metric]:
    out: list[Metric] = []
    for ranx_name in RANX_FAMILIES:  # chunk and file level side by side, in record order
        family, k = ranx_name.split("@")
        out.append(Metric(ranx_name, "chunk", int(k), family, ranx_name))
        out.append(Metric(f"file_{ranx_name}", "file", int(k), family, ranx_name))
    out += [Metric(f"line_coverage@{k}", "line", k, "line_coverage") for k in COVERAGE_KS]
    for label, tokens in BUDGETS.items():
        out.append(Metric(f"budget_line_coverage@{label}", "budget", tokens, "budget_line_coverage"))
        out.append(Metric(f"budget_recall@{label}", "budget", tokens, "budget_recall"))
    for family in LOCALIZATION_FAMILIES:
        for k in LOCALIZATION_KS:
            out.append(Metric(f"{family}@{k}", "chunk", k, family))
            out.append(Metric(f"file_{family}@{k}", "file", k, family))
    for family in LOCALIZATION_FAMILIES:
        for k in MODULE_KS:
            out.append(Metric(f"module_{family}@{k}", "module", k, family))
    # after every older metric, so records keep their order (new metrics only add keys at the end)
    out.append(Metric("file_mrr", "file", 0, "mrr", "mrr"))
    for family in AP_FAMILIES:
        for k in AP_KS:
            cut = f"@{k}" if k else ""
            out.append(Metric(f"file_{family}{cut}", "file", k, family, f"map{cut}" if family == "map" else None))
    return {m.name: m for m in out}


REGISTRY: dict[str, Metric] = _declare()


def metric(name: str) -> Metric:
    """The registered metric ``name``, or a one-line error listing the known ones."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise UserError(f"unknown metric {name!r}: use one of {', '.join(REGISTRY)}") from None


def known(name: str) -> bool:
    return name in REGISTRY


def at_level(level: Level) -> list[Metric]:
    """Registered metrics of one level, in record order."""
    return [m for m in REGISTRY.values() if m.level == level]
