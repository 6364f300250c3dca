"""The snapshot-set section's dense row: both arms run on a real imported snapshot set, the shared store's run.trec
is the per-snapshot path's, the bound counts each distinct text once, and the row renders (no timing is judged
here: the numbers belong to reports/costs.md)."""
from __future__ import annotations

import pytest

from hermes_eval.costs import snapshot_dense

pytestmark = pytest.mark.long  # three arms, each a process loading MiniLM


def test_the_dense_row_measures_both_paths_in_one_run(snapshot_set):
    tmp, _ = snapshot_set
    d = snapshot_dense.run(qs_dir=tmp / "ds" / "shardset")
    assert d["same_run_trec"] is True
    assert d["distinct_texts"] > 0 and d["computed"] == d["distinct_texts"]  # cold: every distinct text, once
    assert d["bound_s"] > 0 and d["ratio"] is not None and d["mapped_blocks"] == 0
    assert [b["n"] for b in d["by_k"]] == [b["n"] for b in d["warm_by_k"]] == [1, 7]
    assert [b["n"] for b in d["per_snapshot_by_k"]] == [1, 7]
    lines = snapshot_dense.markdown(d)
    assert any(line.startswith("| dense exact/functions (shared store) |") for line in lines)
    assert any(line.startswith("| dense exact/functions (shared store, warm cache) |") for line in lines)
    assert any(line.startswith("| 2-8 | 7 |") for line in lines)
    assert snapshot_dense.markdown({"error": "boom"}) == ["", "Dense row: boom"]
    assert "HERMES_COSTS_SNAPSHOT_DENSE_SET" in snapshot_dense.markdown(snapshot_dense.run(qs_dir=tmp / "none"))[1]
