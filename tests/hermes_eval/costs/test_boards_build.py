"""The boards bench: it rebuilds every board it finds from its committed results, each in a process of its
own into a fresh folder (the results it read are left as they were, nothing written beside them), times each
and takes its peak RSS; its row in costs.md passes only within both targets."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from hermes_eval.costs import boards_build
from hermes_eval.costs.benches import render

REPO = Path(__file__).resolve().parents[3]


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_rebuilds_each_board_in_its_own_process_and_leaves_the_results_alone(tmp_path):
    reports = tmp_path / "reports"
    shutil.copytree(REPO / "reports" / "results", reports / "results")  # the default board: 10 arms
    (reports / "notes").mkdir()  # a folder without results is no board
    before = _tree(reports)
    assert [p.relative_to(reports).as_posix() for p in boards_build.boards(reports)] == ["results"]
    got = boards_build.run(reports=reports)
    assert _tree(reports) == before
    [row] = got["rows"]
    assert got["boards"] == 1 and row["board"] == reports.as_posix()
    assert 0 < row["seconds"] <= got["seconds"] and got["peak_rss_mb"] == row["peak_rss_mb"] > 100
    assert got["passed"] == (got["seconds"] <= 120 and got["peak_rss_mb"] <= 2048)


def test_no_results_is_a_skip_and_a_missed_target_is_marked(tmp_path):
    assert "skipped" in boards_build.run(reports=tmp_path)
    machine = {"platform": "p", "cpus": 2, "processor": "x", "python": "3.11"}
    rows = [{"board": "reports/benchmarks/history", "seconds": 130.5, "peak_rss_mb": 2100.0}]
    missed = {"boards": 1, "seconds": 131.0, "peak_rss_mb": 2100.0, "rows": rows, "max_seconds": 120.0,
              "max_rss_mb": 2048.0, "passed": False, "when": "2026-11-28T10:00:00Z"}
    text = render({"machine": machine, "when": "now", "benches": {"boards_build": missed}})
    assert "| boards_build | 131.0 s, peak RSS 2100.0 MB (1 boards" in text
    assert "| <= 120 s, <= 2048 MB | **miss** |" in text
    assert "into fresh folders; measured 2026-11-28T10:00:00Z)" in text
    assert "| reports/benchmarks/history | 130.5 | 2100.0 |" in text and "| all | 131.0 | 2100.0 |" in text
    passed = render({"machine": machine, "when": "now", "benches": {"boards_build": dict(missed, passed=True)}})
    assert "| <= 120 s, <= 2048 MB | pass |" in passed
