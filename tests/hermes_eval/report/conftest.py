"""Fixtures: a grid of fake-but-consistent run directories and the reports built from them."""
from __future__ import annotations

from pathlib import Path

import pytest

from fakeruns import grid


PLANTED_RULE = "quality/<script>window.__pwned=5</script>/ndcg@10"


def gate_history(db: Path) -> None:
    """Four gate runs written by the gate's own history writer: a quality and a latency rule (one
    failing run each, one inconclusive latency run) and a rule whose name carries a script tag."""
    from hermes_eval.gate.outputs import append_history
    from hermes_eval.gate.rules import Verdict

    runs = [(0.50, 1.01, "pass"), (0.49, 1.32, "fail"), (0.51, 1.15, "inconclusive"), (0.50, 0.98, "pass")]
    for i, (ndcg, ratio, lat) in enumerate(runs):
        verdicts = [Verdict("quality/bm25/ndcg@10", "pass" if ndcg >= 0.5 else "fail", 0.5, ndcg, "drop <= 0",
                            "", band=(0.5, None)),
                    Verdict("latency/hybrid/total", lat, 1.0, ratio, "ratio < 1.2", "", higher_is_better=False,
                            band=(0.0, 1.2)),
                    Verdict(PLANTED_RULE, "pass", 0.4, 0.4, "", "", band=(0.4, None))]
        append_history(db, "smoke", {"when": f"2026-11-2{i}T03:17:00Z", "commit": f"{i:040d}"}, verdicts,
                       1 if "fail" in (lat, "pass" if ndcg >= 0.5 else "fail") else 0)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """reports/ built from three arms (two chunkers) and one failed run, planted with script tags, beside
    a gate history (so gate.html is written and linked)."""
    from hermes_eval.report.publish import build_reports

    root = tmp_path_factory.mktemp("report")
    grid(root / "runs")
    gate_history(root / "reports" / "history.sqlite")
    build_reports(root / "runs", root / "reports")
    return root / "reports"
