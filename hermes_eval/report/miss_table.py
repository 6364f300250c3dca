"""Why each arm of a board misses: its queries with no relevant chunk in the top k, by cause
(``head_to_head.miss_cause``: unanswerable, an identical twin of the gold judged irrelevant, a
chunk holding the query's own text, the right file but the wrong chunk, gold ranked below k, gold
never retrieved), and the hits whose gold still misses the 2k-token budget."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hermes_eval.report.board_run import BoardRun
from hermes_eval.report.head_to_head import BUDGET_METRIC, CAUSES, PAST_BUDGET, Arm, miss_causes

MISS_K = 10


@dataclass(frozen=True)
class MissTable:
    k: int
    causes: tuple[str, ...]
    rows: tuple[tuple[str, str, int, tuple[int, ...]], ...]  # (label, config hash, queries, count per cause)
    past_budget: tuple[int | None, ...] = ()  # per row: hits at k with no gold in the budget (None: not recorded)
    budget_label: str = PAST_BUDGET

    @property
    def seen(self) -> tuple[int, ...]:
        """Indices of the causes some arm misses for (a cause none has needs no column)."""
        return tuple(j for j in range(len(self.causes)) if any(counts[j] for _, _, _, counts in self.rows))

    @property
    def unseen(self) -> tuple[str, ...]:
        return tuple(c for j, c in enumerate(self.causes) if j not in self.seen)


def miss_table(labels: dict[str, str], records: dict[str, dict], files: dict[str, BoardRun],
               k: int = MISS_K) -> MissTable | None:
    """Misses at ``k`` by cause for every arm with per-query results (None: none has)."""
    rows, budget = [], []
    for h, label in labels.items():
        f = files[h]
        if not f.ranked_kept or f.per_query.empty:
            continue
        arm = Arm(Path(records[h]["_dir"]), records[h], f)
        qids = [str(q) for q in f.per_query["qid"]]
        counts = miss_causes(arm, qids, k)
        rows.append((label, h, len(qids), tuple(counts[c] for c in CAUSES)))
        budget.append(counts[PAST_BUDGET] if BUDGET_METRIC in f.per_query.columns else None)
    return MissTable(k, CAUSES, tuple(rows), tuple(budget)) if rows else None
