"""The gate history table: numbers read back as the latency rules stored them (and from the detail
lines of rows older than the ``extra`` column)."""
from __future__ import annotations

import sqlite3

import pytest

from hermes_eval.gate.latency import latency_verdict
from hermes_eval.gate.outputs import append_history
from hermes_eval.gate.rules import Verdict
from hermes_eval.gate.series import load_runs, main, render
from hermes_eval.gate.spec import LatencyRule, PairedDesign
from test_rules import timings

RULE = LatencyRule(arm="a", stage="total", min_ratio=1.2, alpha=0.01)
DESIGN = PairedDesign(rounds=3, bootstrap=500)


def record(db, code: int, *verdicts: Verdict) -> None:
    append_history(db, "nightly", {"when": "2026-11-25T00:00:00Z", "commit": "c" * 40}, list(verdicts), code)


def test_each_run_shows_the_ratio_ci_and_aa_offset_the_rule_measured(tmp_path):
    db = tmp_path / "gate.sqlite"
    steady = latency_verdict(RULE, timings(1.0, 0.05), DESIGN, "b" * 40)
    slow = latency_verdict(RULE, timings(1.5, 0.05, aa_bias=1.04), DESIGN, "b" * 40)
    quality = Verdict("quality/a/ndcg@10", "pass", 0.5, 0.5, "drop <= 0", "ndcg@10 0.5000 - 0.5000")
    record(db, 0, steady, quality)
    record(db, 1, slow, quality)
    runs = load_runs(db, "nightly", last=10)
    assert [r.exit_code for r in runs] == [0, 1] and all(set(r.latency) == {"latency/a/total"} for r in runs)
    for run, verdict in zip(runs, (steady, slow)):
        cell = run.latency["latency/a/total"]
        assert cell.status == verdict.status
        assert cell.ratio == pytest.approx(verdict.current, abs=5e-4)
        assert cell.aa_offset == pytest.approx(verdict.extra["aa_offset"], abs=5e-4)
        assert cell.ci == pytest.approx(verdict.extra["ci"], abs=5e-4)
    assert runs[1].latency["latency/a/total"].aa_offset > 1.02  # the planted 4% twin bias shows
    text = render("nightly", runs)
    below = sum(run.latency["latency/a/total"].aa_offset < 1.03 for run in runs)
    assert "pass 1, inconclusive 0, regression 1" in text and f"{below} of 2 below 1.03x" in text
    assert load_runs(db, "nightly", last=1)[0].exit_code == 1  # the newest


def test_rows_from_before_the_extra_column_are_read_from_their_detail_line(tmp_path):
    db = tmp_path / "gate.sqlite"
    verdict = latency_verdict(RULE, timings(1.0, 0.05), DESIGN, "b" * 40)
    record(db, 0, verdict)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE gate_rules SET extra = NULL")  # what an older gate wrote
    cell = load_runs(db, "nightly", last=1)[0].latency["latency/a/total"]
    assert cell.aa_offset == pytest.approx(verdict.extra["aa_offset"], abs=5e-4)
    assert cell.ci == pytest.approx(verdict.extra["ci"], abs=5e-4)


def test_missing_history_is_one_line(tmp_path):
    with pytest.raises(SystemExit, match="no gate history here"):
        main(["--db", str(tmp_path / "none.sqlite")])


def test_cli_writes_the_table(tmp_path):
    db = tmp_path / "gate.sqlite"
    record(db, 3, latency_verdict(RULE, timings(1.0, 0.05), DESIGN, "b" * 40))
    main(["--db", str(db), "--out", str(tmp_path / "t.md")])
    text = (tmp_path / "t.md").read_text()
    assert "| 1 | 2026-11-25T00:00:00Z | cccccccccccc | inconclusive |" in text
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM gate_runs").fetchone() == (1,)  # read, never written
