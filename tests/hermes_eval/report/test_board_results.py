"""A board's committed results (OUT/results/): `leaderboard --from-results` rebuilds the very pages the run
folders gave (byte for byte), with the settings they were built with; old run folders still export;
damaged results are refused in one line."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from fakeruns import BASELINE, DENSE_AST, HYBRID, gate_history, grid, queries, write_arm

from hermes_eval.cli.main import main
from hermes_eval.core.errors import UserError
from hermes_eval.report.board_results import FILES, INDEX, read_results
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.publish import build_from_results, build_reports

ANCHORS = f"""columns: [file_recall@5, recall@5]
anchors:
  - querysets: [toy-qs]
    published: "Someone's paper: BM25"
    metric: ndcg@10
    value: 0.25
    system: {BASELINE.system}
    source: a public leaderboard
  - querysets: [toy-qs]
    published: "Someone's per-repository mean"
    metric: file_recall@1
    value: 0.4
    system: {DENSE_AST.system}
    source: a paper
    average: repos
"""


def pages(out: Path) -> dict[str, bytes]:
    """Every file a board build wrote, but its results folder and build key."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.relative_to(out).parts[0] != "results" and p.name != ".leaderboard.key"}


def test_the_board_from_its_results_is_the_board_from_its_runs(tmp_path):
    grid(tmp_path / "runs")
    for out in ("a", "b"):
        gate_history(tmp_path / out / "history.sqlite")  # the trend page too, from the same history
    written = build_reports(tmp_path / "runs", tmp_path / "a")
    assert (tmp_path / "a" / "results" / INDEX) in written
    shutil.rmtree(tmp_path / "runs")  # nothing of the runs is read again, nor of their corpus
    shutil.rmtree(tmp_path / "runs-corpus")
    build_from_results(tmp_path / "a" / "results", tmp_path / "b", ReportSettings())
    a, b = pages(tmp_path / "a"), pages(tmp_path / "b")
    assert {"leaderboard.md", "leaderboard.html", "explorer/toy-qs.js", "charts/toy-qs-latency.png",
            "gate.html", "results.parquet"} <= set(a)
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []
    assert "window.__pwned=6" in b["explorer/toy-qs.js"].decode().replace("\\u003c", "<")  # the gold code came along


def test_the_cli_rebuilds_from_results_with_the_settings_they_were_built_with(tmp_path, capsys):
    qs = queries()
    for k, arm in enumerate((BASELINE, HYBRID, DENSE_AST)):
        write_arm(tmp_path / "runs", arm, qs, seed=k)
    (tmp_path / "a.yaml").write_text(ANCHORS)
    # (not --stat-test fisher: ranx's randomization test runs its permutations in parallel numba threads,
    # so its p-values differ build to build, from the same runs too)
    args = ["--anchors", str(tmp_path / "a.yaml"), "--baseline", "python_ast/exact", "--alpha", "0.1"]
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "a"), *args]) == 0
    capsys.readouterr()
    stored = json.loads((tmp_path / "a" / "results" / INDEX).read_text())["settings"]
    assert stored == {"anchors": str(tmp_path / "a.yaml"), "baseline": "python_ast/exact", "stat_test": "student",
                      "alpha": 0.1, "n_permutations": 1000, "seed": 0}
    shutil.copytree(tmp_path / "a" / "results", tmp_path / "b" / "results")
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) == 0  # out: beside them
    printed = capsys.readouterr().out.split()
    assert str(tmp_path / "b" / "leaderboard.html") in printed
    assert not any("/results/" in p for p in printed)  # inputs, not outputs
    a, b = pages(tmp_path / "a"), pages(tmp_path / "b")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []
    md = b["leaderboard.md"].decode()
    assert "chosen with --baseline python\\_ast/exact" in md and "per-repository mean" in md
    assert "recall@5" in md and "α = 0.1" in md

    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results")]) == 0  # unchanged: kept
    assert "up to date" in capsys.readouterr().err
    assert main(["leaderboard", "--from-results", str(tmp_path / "b" / "results"), "--alpha", "0.05"]) == 0
    assert "up to date" not in capsys.readouterr().err  # a setting given here wins, and rebuilds
    assert "α = 0.05" in (tmp_path / "b" / "leaderboard.md").read_text()


def test_old_run_folders_export_and_rebuild_the_same(tmp_path):
    """Folders written before per-query languages, leak places, line qrels and per-stratum means existed."""
    grid(tmp_path / "runs")
    for run_dir in sorted((tmp_path / "runs").glob("toy-qs-*")):
        df = pd.read_parquet(run_dir / "per_query.parquet")
        df.drop(columns=["language", "top10_scores"]).to_parquet(run_dir / "per_query.parquet", index=False)
        (run_dir / "qrels.line.trec").unlink()
        rec = json.loads((run_dir / "record.json").read_text())
        for key in ("hygiene", "chunks", "index", "queryset_info"):
            rec.pop(key, None)
        (run_dir / "record.json").write_text(json.dumps(rec))
    build_reports(tmp_path / "runs", tmp_path / "a")
    build_from_results(tmp_path / "a" / "results", tmp_path / "b", ReportSettings())
    a, b = pages(tmp_path / "a"), pages(tmp_path / "b")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []
    assert "toy-qs" in a["leaderboard.md"].decode()


def test_results_hold_what_boards_read_and_no_more(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "a")
    got = read_results(tmp_path / "a" / "results")
    assert [r["status"] for r in got.inputs.records] == ["ok", "ok", "ok", "failed"]
    assert all("files" not in r for r in got.inputs.records)  # run-file checksums: of files not committed
    run = got.inputs.runs[BASELINE.config_hash]
    assert "top10" not in run.per_query and "top10_scores" not in run.per_query
    assert not [c for c in run.per_query.columns if c.startswith("ms_")]  # latencies apart, sorted
    assert list(run.stage_ms()) == ["sparse", "total"] and run.stage_ms()["total"].is_monotonic_increasing
    assert "recall@1" not in run.per_query and {"ndcg@10", "file_recall@10", "line_coverage@10"} <= set(run.per_query)
    with pytest.raises(UserError, match="recall@1 not kept"):  # settings that need more than was kept
        build_from_results(tmp_path / "a" / "results", tmp_path / "b", ReportSettings(columns=("recall@1",)))


def test_damaged_results_are_refused_in_one_line(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "a")
    table = tmp_path / "a" / "results" / "rankings.parquet"
    table.write_bytes(table.read_bytes()[:-10])
    with pytest.raises(UserError, match="rankings.parquet does not match its checksum") as err:
        read_results(tmp_path / "a" / "results")
    assert "\n" not in str(err.value)
    with pytest.raises(UserError, match="no readable board.json"):
        read_results(tmp_path / "nowhere")


def test_a_rebuild_from_other_runs_replaces_the_results(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "a")
    write_arm(tmp_path / "other", BASELINE, queries(plant=False), queryset="other-qs")
    build_reports(tmp_path / "other", tmp_path / "a")
    assert sorted(p.name for p in (tmp_path / "a" / "results").iterdir()) == sorted([INDEX, *FILES])
    got = read_results(tmp_path / "a" / "results")
    assert [r["queryset"] for r in got.inputs.records] == ["other-qs"] and list(got.inputs.codes) == ["other-qs"]


def test_unreadable_runs_are_named_on_the_rebuilt_board_too(tmp_path):
    cut = grid(tmp_path / "runs")[1]
    (cut / "record.json").write_bytes((cut / "record.json").read_bytes()[:300])
    build_reports(tmp_path / "runs", tmp_path / "a")
    build_from_results(tmp_path / "a" / "results", tmp_path / "b", ReportSettings())
    a, b = pages(tmp_path / "a"), pages(tmp_path / "b")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []
    assert f"**1 run unreadable: {cut} (unreadable: " in a["leaderboard.md"].decode().replace("\\", "")
