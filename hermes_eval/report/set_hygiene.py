"""A board's query-set hygiene: leak shares, unanswerable queries per arm, and whether the set
ranks under the "leaking" heading (self-retrieval or leak share above the set's threshold)."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from hermes_eval.record.results import HYGIENE_PREFIX

DEFAULT_THRESHOLD = 0.05  # hygiene.self_retrieval_warn when a record does not say


def _max(rows: pd.DataFrame, key: str) -> float | None:
    col = f"{HYGIENE_PREFIX}{key}"
    if col not in rows.columns or rows[col].isna().all():
        return None
    return float(pd.to_numeric(rows[col], errors="coerce").max())


@dataclass(frozen=True)
class SetHygiene:
    """What the board shows about its query set (shares are the largest over its runs)."""

    self_retrieval: float | None
    leak: float | None
    leak_in_gold: float | None
    leak_elsewhere: float | None
    threshold: float
    unanswerable: dict[str, int]  # config hash -> queries with no judgeable chunk
    twins: dict[str, tuple[int, int]] | None = None  # config hash -> (twin_gold queries, duplicate docs)

    @property
    def leaking(self) -> bool:
        return any(v is not None and v > self.threshold for v in (self.self_retrieval, self.leak))

    @property
    def unanswerable_differ(self) -> bool:
        return len(set(self.unanswerable.values())) > 1

    def warning(self) -> str | None:
        """The line a leaking set carries on every board, else None."""
        if not self.leaking:
            return None
        if self.self_retrieval is not None and self.self_retrieval > self.threshold:
            what = f"{self.self_retrieval:.1%} of queries appear verbatim in their gold text"
        else:
            parts = [f"{v:.1%} {where}" for v, where in ((self.leak_in_gold, "in their gold text"),
                                                          (self.leak_elsewhere, "elsewhere in the corpus"))
                     if v]
            what = f"{self.leak:.1%} of queries leak ({', '.join(parts) or 'see hygiene'})"
        return (f"LEAKING: {what} (threshold {self.threshold:.0%}); its scores are inflated and do "
                f"not rank search quality")

    def twins_note(self, labels: dict[str, str]) -> str | None:
        """Said when some arms judge identical twins of a gold document irrelevant (MTEB's CoSQA)."""
        hit = {h: v for h, v in (self.twins or {}).items() if v[0]}
        if not hit:
            return None
        arms = "; ".join(f"{labels.get(h, h)}: {q} queries, {d} duplicate documents"
                         for h, (q, d) in sorted(hit.items(), key=lambda kv: labels.get(kv[0], "")))
        return (f"Identical twins: these arms index copies of a text under several ids and judge the copies "
                f"of a query's gold irrelevant ({arms}); rows marked +dedupe collapse the copies and carry "
                f"relevance over.")

    def unanswerable_note(self, labels: dict[str, str]) -> str | None:
        """Said next to the comparison when arms were scored on different answerable sets."""
        if not self.unanswerable_differ:
            return None
        counts = ", ".join(f"{labels.get(h, h)}: {n}" for h, n in sorted(self.unanswerable.items(),
                                                                          key=lambda kv: (kv[1], labels.get(kv[0], ""))))
        return (f"Arms differ in unanswerable queries (no judgeable chunk in their chunking; they score 0): "
                f"{counts}. Chunk-level columns compare different answerable sets; the chunking-fair "
                f"ranking metric does not depend on it.")


def set_hygiene(rows: pd.DataFrame) -> SetHygiene:
    """The hygiene of the query set a board's rows ran on."""
    col = f"{HYGIENE_PREFIX}unanswerable"
    unans = ({str(r["config_hash"]): int(r[col]) for _, r in rows.iterrows() if pd.notna(r.get(col))}
             if col in rows.columns else {})
    warn = pd.to_numeric(rows["leak_warn"], errors="coerce").dropna() if "leak_warn" in rows.columns else []
    tg, dd = f"{HYGIENE_PREFIX}twin_gold", f"{HYGIENE_PREFIX}duplicate_docs"
    twins = ({str(r["config_hash"]): (int(r[tg]), int(r[dd]) if pd.notna(r.get(dd)) else 0)
              for _, r in rows.iterrows() if pd.notna(r.get(tg))} if tg in rows.columns else {})
    return SetHygiene(self_retrieval=_max(rows, "self_retrieval_share"), leak=_max(rows, "leak_share"),
                      leak_in_gold=_max(rows, "leak_in_gold_share"), leak_elsewhere=_max(rows, "leak_elsewhere_share"),
                      threshold=float(min(warn)) if len(warn) else DEFAULT_THRESHOLD, unanswerable=unans,
                      twins=twins)
