"""Two sweeps are the same measurement when everything but timings and scheduling facts matches."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from hermes_eval.record.sameness import main, runs_diffs


def write_run(root: Path, name: str, *, wall: float, ms: float, source: str, score: float = 0.5,
              top: str = "a.py:1-3") -> Path:
    d = root / name
    d.mkdir(parents=True)
    record = {"config_hash": "abc", "status": "ok", "metrics": {"ndcg@10": {"mean": score}},
              "wall_seconds": wall, "finished_at": f"t{wall}", "latency_ms": {"total": {"p50": ms}},
              "peak_rss_mb": wall * 10, "machine": {"hostname_hash": str(wall)}, "git_commit": str(wall),
              "cache": [{"kind": "chunks", "source": source}], "embeddings": {"computed": int(wall)},
              "index": {"build_seconds": {"dense": wall}, "build_seconds_total": wall,
                        "sources": {"dense": source}, "bytes": {"dense": 1000}}}
    (d / "record.json").write_text(json.dumps(record))
    (d / "run.trec").write_text(f"q1 Q0 {top} 1 1.0 tag\n")
    for qrels in ("qrels.trec", "qrels.file.trec", "qrels.line.trec"):
        (d / qrels).write_text("q1 0 a.py:1-3 1\n")
    pd.DataFrame({"qid": ["q1"], "ndcg@10": [score], "ms_total": [ms], "ms_embed": [ms / 2]}).to_parquet(
        d / "per_query.parquet", index=False)
    return d


def test_timings_and_scheduling_facts_do_not_count(tmp_path):
    write_run(tmp_path / "a", "arm", wall=1.0, ms=3.0, source="computed")
    write_run(tmp_path / "b", "arm", wall=9.0, ms=7.5, source="cache")
    assert runs_diffs(tmp_path / "a", tmp_path / "b") == (1, [])
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0


def test_a_metric_a_ranking_or_a_missing_arm_does(tmp_path):
    write_run(tmp_path / "a", "arm", wall=1.0, ms=3.0, source="computed")
    write_run(tmp_path / "b", "arm", wall=1.0, ms=3.0, source="computed", score=0.5000000001, top="b.py:1-3")
    write_run(tmp_path / "a", "only_a", wall=1.0, ms=3.0, source="computed")
    n, diffs = runs_diffs(tmp_path / "a", tmp_path / "b")
    assert n == 1
    assert sorted(diffs) == sorted(["only_a: only in " + str(tmp_path / "a"), "arm/run.trec differs",
                                    "arm/per_query.parquet: column ndcg@10 differs",
                                    "arm/record.json: metrics.ndcg@10.mean differs"])
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1


def _add_fields(d: Path, **extra) -> None:
    record = json.loads((d / "record.json").read_text())
    record.update(extra)
    (d / "record.json").write_text(json.dumps(record))


def test_fields_newer_code_adds_count_only_without_allow_added(tmp_path, capsys):
    write_run(tmp_path / "a", "arm", wall=1.0, ms=3.0, source="computed")
    b = write_run(tmp_path / "b", "arm", wall=1.0, ms=3.0, source="computed")
    _add_fields(b, strata={"language": {"python": 1}})
    df = pd.read_parquet(b / "per_query.parquet").assign(language=["python"])
    df.to_parquet(b / "per_query.parquet", index=False)
    assert sorted(runs_diffs(tmp_path / "a", tmp_path / "b")[1]) == [
        "arm/per_query.parquet: column language added", "arm/record.json: strata added"]
    assert main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    assert main(["--allow-added", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert "added by the second tree, not compared: column language added, strata added" in capsys.readouterr().out


def test_allow_added_still_fails_on_a_changed_or_dropped_value(tmp_path):
    a = write_run(tmp_path / "a", "arm", wall=1.0, ms=3.0, source="computed")
    _add_fields(a, hygiene={"leaks": 2})
    b = write_run(tmp_path / "b", "arm", wall=1.0, ms=3.0, source="computed", score=0.25)
    _add_fields(b, strata={"language": {}})
    _, diffs = runs_diffs(tmp_path / "a", tmp_path / "b")
    assert "arm/record.json: hygiene only in the first" in diffs and "arm/record.json: metrics.ndcg@10.mean differs" in diffs
    assert main(["--allow-added", str(tmp_path / "a"), str(tmp_path / "b")]) == 1
