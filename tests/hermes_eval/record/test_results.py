"""The results table: every run directory is a row; failures keep their error; newest hash wins."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from hermes_eval.record.results import collect


def record(chash: str, finished: str, status: str = "ok", **extra) -> dict:
    rec = {"config_hash": chash, "finished_at": finished, "status": status, "system": "rank_bm25",
           "chunker": "lines", "queryset": "qs", "legs": ["sparse"], "error": None,
           "config": {"fusion": {"dense_weight": 0.0, "name": "rrf"}, "retriever": {"name": "bm25"}},
           "metrics": {"ndcg@10": {"mean": 0.5, "ci_low": 0.4, "ci_high": 0.6, "n": 10}},
           "latency_ms": {"total": {"p50": 1.0, "p90": 2.0, "p95": 2.5, "p99": 3.0, "n": 10}},
           "hygiene": {"queries": 10, "self_retrieval": 1, "self_retrieval_share": 0.1},
           "queryset_info": {"n": 10}, "index": {"build_seconds_total": 0.1, "bytes": {"sparse": 2_000_000}}}
    rec.update(extra)
    return rec


def write(root: Path, name: str, rec: dict | str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "record.json").write_text(rec if isinstance(rec, str) else json.dumps(rec))
    return d


def test_collect_lists_every_run_and_keeps_the_newest_duplicate(tmp_path):
    runs = tmp_path / "runs"
    write(runs, "a-old", record("h1", "2026-01-01T00:00:00Z", metrics={}))
    write(runs, "nested/a-new", record("h1", "2026-02-01T00:00:00Z"))
    write(runs, "b", record("h2", "2026-01-05T00:00:00Z", status="failed", error="ValueError: boom <b>"))
    write(runs, "c", "{not json")
    inc = runs / "d"
    inc.mkdir()
    (inc / "run.trec").write_text("")
    (runs / "empty").mkdir()
    df, records = collect(runs)
    assert len(df) == 4 and len(records) == 4
    h1 = df[df["config_hash"] == "h1"].iloc[0]
    assert h1["run_dir"].endswith("nested/a-new") and h1["ndcg@10"] == 0.5 and h1["ndcg@10_ci_high"] == 0.6
    assert h1["total_p95_ms"] == 2.5 and h1["index_mb"] == 2.0 and h1["hygiene_self_retrieval"] == 1
    assert h1["dense_weight"] == 0.0 and h1["legs"] == "sparse"
    status = dict(zip(df["run_name"], df["status"]))
    assert status == {"a-new": "ok", "b": "failed", "c": "unreadable", "d": "incomplete"}
    errors = dict(zip(df["run_name"], df["error"]))
    assert errors["b"] == "ValueError: boom <b>" and "record.json unreadable" in errors["c"]
    assert "no record.json" in errors["d"]


def test_table_round_trips_through_parquet(tmp_path):
    runs = tmp_path / "runs"
    write(runs, "a", record("h1", "2026-01-01T00:00:00Z"))
    write(runs, "b", record("h2", "2026-01-02T00:00:00Z", status="failed", error="x", metrics=None))
    df, _ = collect(runs)
    df.to_parquet(tmp_path / "r.parquet", index=False)
    back = pd.read_parquet(tmp_path / "r.parquet")
    assert list(back["status"]) == ["ok", "failed"]


def test_missing_runs_dir_is_an_empty_table(tmp_path):
    df, records = collect(tmp_path / "nowhere")
    assert df.empty and records == []


def test_a_run_linked_into_the_folder_is_collected(tmp_path):
    """Gathering a few runs for a merge by symlinking them into a folder: each linked run (and a linked
    folder of runs) is a row, as a copied one would be; before, the links were skipped silently."""
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, "x", record("hx", "2026-01-01T00:00:00Z"))
    write(elsewhere / "group", "y", record("hy", "2026-01-02T00:00:00Z"))
    runs = tmp_path / "runs"
    write(runs, "local", record("hl", "2026-01-03T00:00:00Z"))
    (runs / "x").symlink_to(elsewhere / "x", target_is_directory=True)
    (runs / "group").symlink_to(elsewhere / "group", target_is_directory=True)
    df, _ = collect(runs)
    assert sorted(df["config_hash"]) == ["hl", "hx", "hy"]
    assert sorted(df["run_name"]) == ["local", "x", "y"]
