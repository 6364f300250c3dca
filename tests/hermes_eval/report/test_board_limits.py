"""A board keeps what its records' ``board_limits`` ask for: the query text and gold code of its results
are clipped to them, board.json remembers them, a rebuild from the results gives the same pages, and a
rebuild after the records asked for other limits is refused in one line."""
from __future__ import annotations

import json
import shutil

from fakeruns import grid
from test_board_results import pages

from hermes_eval.cli.main import main
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.report.board_results import INDEX, read_results
from hermes_eval.report.board_run import elide
from hermes_eval.report.options import BoardLimits


def _conf(tmp_path, limits: str):
    conf = tmp_path / "conf"
    (conf / "benchmarks").mkdir(parents=True, exist_ok=True)
    src = (CONF_DIR / "benchmarks" / "cosqa.yaml").read_text()
    assert "\nboard: reports/benchmarks\n" in src
    (conf / "benchmarks" / "cosqa.yaml").write_text(
        src.replace("\nboard: reports/benchmarks\n", f"\nboard: reports/lean\nboard_limits: {limits}\n"))
    return conf


def test_a_boards_records_set_what_its_results_keep_and_the_rebuild_checks_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("hermes_eval.cli.main.CONF_DIR", _conf(tmp_path, "{query_chars: 12, code_lines: 1}"))
    grid(tmp_path / "runs")
    args = ["--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "a"), "--anchors", "lean"]
    assert main(["leaderboard", *args]) == 0
    index = json.loads((tmp_path / "a" / "results" / INDEX).read_text())
    assert index["limits"] == {"query_chars": 12, "code_lines": 1, "code_chars": 3000}
    limits = BoardLimits(query_chars=12, code_lines=1)
    got = read_results(tmp_path / "a" / "results", limits).inputs
    texts = [t for r in got.runs.values() for t in r.per_query["query"]]
    assert texts and all(t == elide(t, 12) or "characters left out" in t for t in texts)
    assert max(len(t.split("\n… [")[0]) for t in texts) <= 6  # the first half of 12
    code = [t for c in got.codes.values() for t in c.text.values()]
    assert code and all(len(t.split("\n")) <= 2 for t in code)  # one line, and how many it had

    shutil.copytree(tmp_path / "a" / "results", tmp_path / "b" / "results")
    capsys.readouterr()
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) == 0
    a, b = pages(tmp_path / "a"), pages(tmp_path / "b")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []

    monkeypatch.setattr("hermes_eval.cli.main.CONF_DIR", _conf(tmp_path, "{query_chars: 120, code_lines: 1}"))
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) != 0
    err = capsys.readouterr().err.strip()
    assert "query_chars=12" in err and "query_chars=120" in err and "rebuild the board from its runs" in err
    assert "\n" not in err


def test_latencies_kept_to_microseconds_are_what_a_build_from_the_runs_draws(tmp_path, monkeypatch, capsys):
    """``latency_digits: 3``: the results keep integer microseconds (the latency CDFs cannot tell them from
    nanoseconds); results kept to more digits serve such a board (rounded on reading, the same pages as the
    runs give) and a merge into them writes them with the board's digits; fewer digits than asked are refused."""
    import numpy as np

    grid(tmp_path / "runs")
    fine = ["--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "fine"), "--anchors", "lean"]
    monkeypatch.setattr("hermes_eval.cli.main.CONF_DIR", _conf(tmp_path, "{query_chars: 12}"))
    assert main(["leaderboard", *fine]) == 0
    measured = read_results(tmp_path / "fine" / "results", BoardLimits(query_chars=12)).inputs.runs
    monkeypatch.setattr("hermes_eval.cli.main.CONF_DIR", _conf(tmp_path, "{query_chars: 12, latency_digits: 3}"))
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "us"), "--anchors",
                 "lean"]) == 0
    index = json.loads((tmp_path / "us" / "results" / INDEX).read_text())
    assert index["latency_unit"] == "us" and index["limits"]["latency_digits"] == 3
    kept = read_results(tmp_path / "us" / "results", BoardLimits(query_chars=12, latency_digits=3)).inputs.runs
    assert kept.keys() == measured.keys()
    for h, run in kept.items():
        assert run.latency.keys() == measured[h].latency.keys() and run.latency
        for stage, ms in run.latency.items():
            assert np.array_equal(ms, np.round(measured[h].latency[stage], 3))
            assert np.array_equal(np.rint(ms * 1e3) / 1e3, ms)
    assert any(not np.array_equal(ms, measured[h].latency[s]) for h, r in kept.items() for s, ms in r.latency.items())

    # the nanosecond results rebuild the microsecond board page for page
    shutil.copytree(tmp_path / "fine" / "results", tmp_path / "b" / "results")
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) == 0
    a, b = pages(tmp_path / "us"), pages(tmp_path / "b")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []
    # a merge (here of no new run) writes them again, in microseconds
    (tmp_path / "none").mkdir()
    assert main(["leaderboard", "--runs", str(tmp_path / "none"), "--out", str(tmp_path / "b"), "--anchors", "lean",
                 "--merge"]) == 0
    assert json.loads((tmp_path / "b" / "results" / INDEX).read_text())["latency_unit"] == "us"
    assert pages(tmp_path / "b") == a

    capsys.readouterr()
    monkeypatch.setattr("hermes_eval.cli.main.CONF_DIR", _conf(tmp_path, "{query_chars: 12, latency_digits: 6}"))
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) != 0
    err = capsys.readouterr().err.strip()
    assert "latency_digits=3" in err and "latency_digits=6" in err and "\n" not in err
