"""`leaderboard --merge`: new runs go into a board's committed results. A run replaces the result of its
config hash in place, results of sets not re-run stay, and results on a query set re-imported since (other
queries or corpus) are dropped and named; the merged results rebuild the same board."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
from fakeruns import BASELINE, HYBRID, grid, queries, write_arm
from test_board_results import pages

from hermes_eval.report.board_merge import set_identity
from hermes_eval.report.board_results import read_results
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.publish import build_from_results, build_reports


OTHER = replace(BASELINE, config_hash="eeee000000000005")  # a config's hash names its query set too


def corpus_update(tmp_path: Path) -> dict:
    return {"config": {"corpus": {"name": "toy", "sources": [str((tmp_path / "runs-corpus").resolve())]}}}


def per_query(run_dir: Path) -> pd.DataFrame:
    return pd.read_parquet(run_dir / "per_query.parquet")


def test_a_merge_replaces_its_config_hashes_and_keeps_every_other_result(tmp_path, capsys):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "board")
    before = [(r["queryset"], r["config_hash"]) for r in read_results(tmp_path / "board" / "results").inputs.records]
    again = write_arm(tmp_path / "new", HYBRID, queries(), seed=7, record_update=corpus_update(tmp_path))
    write_arm(tmp_path / "new", OTHER, queries(plant=False), queryset="other-qs")
    build_reports(tmp_path / "new", tmp_path / "board", merge=True)
    got = read_results(tmp_path / "board" / "results").inputs
    # the old board's order with the re-run in its place, the new set after it
    assert len(before) == 4 and ("toy-qs", HYBRID.config_hash) in before
    assert [(r["queryset"], r["config_hash"]) for r in got.records] == [*before, ("other-qs", OTHER.config_hash)]
    # the re-run's per-query values replace the old ones
    hybrid = got.runs[HYBRID.config_hash].per_query
    assert list(hybrid["ndcg@10"]) == list(per_query(again)["ndcg@10"])
    assert set(got.codes) == {"toy-qs", "other-qs"}
    assert "dropped" not in capsys.readouterr().err
    # the merged results are the board's results: a rebuild from them gives the same pages
    build_from_results(tmp_path / "board" / "results", tmp_path / "rebuilt", ReportSettings())
    a, b = pages(tmp_path / "board"), pages(tmp_path / "rebuilt")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []


def test_a_set_imported_again_drops_the_results_nobody_re_ran_on_it(tmp_path, capsys):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "board")
    changed = dict(corpus_update(tmp_path), queryset_info={"manifest": {"name": "toy-qs", "counts": {"queries": 23}}})
    write_arm(tmp_path / "new", HYBRID, queries(), seed=7, record_update=changed)
    build_reports(tmp_path / "new", tmp_path / "board", merge=True)
    got = read_results(tmp_path / "board" / "results").inputs
    assert [r["config_hash"] for r in got.records] == [HYBRID.config_hash]
    err = capsys.readouterr().err
    assert err.count("dropped (its query set changed since): toy-qs:") == 3  # two arms and the failed run


def test_a_set_is_the_same_set_on_any_machine():
    a = {"queryset_info": {"manifest": {"corpus_fingerprint": "f", "counts": {"queries": 3}, "source": "/x/repo"}}}
    b = {"queryset_info": {"manifest": {"corpus_fingerprint": "f", "counts": {"queries": 3}, "source": "/y/repo"}}}
    c = {"queryset_info": {"manifest": {"corpus_fingerprint": "g", "counts": {"queries": 3}, "source": "/x/repo"}}}
    assert set_identity(a) == set_identity(b) != set_identity(c)
