"""The committed smoke suite (the nightly arms and rules on 100 queries, conf/gate/smoke.yaml) against
its committed baseline, run for real through the CLI."""
from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def reports(tmp_path) -> Path:
    out = tmp_path / "reports"
    shutil.copytree(ROOT / "reports" / "baseline", out / "baseline")
    return out


def gate(reports: Path, *args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    import os

    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "gate", "--name", "smoke",
                           "--reports", str(reports),
                           "--runs", str(reports.parent / "runs"), f"paths.cache={ROOT / '.cache'}", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env)


def test_smoke_suite_is_the_nightly_suite_on_fewer_queries():
    from hermes_eval.gate.spec import load_spec

    smoke, nightly = (load_spec(ROOT / "conf" / "gate" / f"{n}.yaml") for n in ("smoke", "nightly"))
    assert smoke.arms == nightly.arms and smoke.quality == nightly.quality and smoke.latency == nightly.latency
    extra = [o for o in smoke.common if o not in nightly.common]
    assert set(nightly.common) <= set(smoke.common) and all(o.startswith("queryset.") for o in extra)


def test_unchanged_system_passes_twice_in_a_row(reports, tmp_path):
    step_summary = tmp_path / "step_summary.md"
    for _ in range(2):
        proc = gate(reports, env_extra={"GITHUB_STEP_SUMMARY": str(step_summary)})
        assert proc.returncode == 0, proc.stdout + proc.stderr
    out = reports / "gate"
    assert "PASS" in (out / "smoke-summary.md").read_text()
    assert step_summary.read_text().count("# Gate `smoke`: PASS") == 2
    suite = ElementTree.parse(out / "smoke-junit.xml").getroot()
    assert int(suite.get("tests")) >= 10 and suite.get("failures") == "0"
    bigger = json.loads((out / "smoke-bigger-is-better.json").read_text())
    smaller = json.loads((out / "smoke-smaller-is-better.json").read_text())
    assert {"name", "unit", "value"} <= set(bigger[0]) and smaller and all(e["unit"] == "x reference" for e in smaller)
    with sqlite3.connect(reports / "history.sqlite") as con:
        assert con.execute("SELECT COUNT(*), SUM(exit_code) FROM gate_runs").fetchone() == (2, 0)


def test_injected_quality_regression_fails_naming_the_metric(reports):
    proc = gate(reports, "retriever.sparse.tokenizer.split_identifiers=false")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    summary = (reports / "gate" / "smoke-summary.md").read_text()
    failed = summary.split("## All rules")[0]
    assert "quality/bm25/" in failed and "allowed drop 0.0000" in failed
    base = json.loads((reports / "baseline" / "smoke.json").read_text())["arms"]["bm25"]["metrics"]
    line = next(ln for ln in failed.splitlines() if "quality/bm25/ndcg@10" in ln)
    assert f"ndcg@10 {base['ndcg@10']:.4f} -" in line and "delta -0." in line  # baseline, new, delta


def test_injected_slowdown_fails_the_latency_rule_only(reports):
    proc = gate(reports, "retriever=hybrid_slow_dense")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    failed = (reports / "gate" / "smoke-summary.md").read_text().split("## All rules")[0]
    assert "latency/hybrid/total" in failed and "latency/dense/total" in failed
    assert "quality/" not in failed


@pytest.mark.parametrize("damage,needle", [(None, "is missing"), ("{not json", "is corrupt"),
                                           ('{"arms": 3}', "no 'arms'")])
def test_missing_or_corrupt_baseline_exits_2(reports, damage, needle):
    path = reports / "baseline" / "smoke.json"
    if damage is None:
        path.unlink()
    else:
        path.write_text(damage)
    proc = gate(reports)
    assert proc.returncode == 2
    assert needle in proc.stderr and "Traceback" not in proc.stderr
