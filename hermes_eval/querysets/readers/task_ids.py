"""Stable unique query ids for a RepoEval release.

The function-level release gives every task of a repository the same id (``OWNER--NAME/idx``);
CodeRAG-Bench's script rewrites them to ``OWNER_NAME/i``, ``i`` counting that repository's tasks
in file order. The same rule here, so our qids are its qids; ids that are already unique stay.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from hermes_eval.core.errors import UserError


def unique_task_ids(ids: Sequence[str], source: str) -> tuple[list[str], dict[str, int]]:
    """(a unique qid per row, {repeated task id: how many rows carry it})."""
    counts = Counter(ids)
    repeated = {t: n for t, n in counts.items() if n > 1}
    per_repo: Counter = Counter()
    out: list[str] = []
    for t in ids:
        if t not in repeated:
            out.append(t)
            continue
        repo = t.replace("--", "_").split("/")[0]
        out.append(f"{repo}/{per_repo[repo]}")
        per_repo[repo] += 1
    clash = [q for q, n in Counter(out).items() if n > 1]
    if clash:
        raise UserError(f"{source}: task ids rewritten for uniqueness collide with existing ones ({clash[0]!r}): "
                        f"give the rows distinct metadata.task_id")
    return out, dict(sorted(repeated.items()))
