"""`leaderboard --values-only`: runs kept as per-query values of the measures their set shows, for arms a
board's results have no room for. Their rows, marks, tied groups and hybrid verdict are those of the same
runs kept whole; their results hold no rankings, query text, latency samples or gold code; the pages say
which arms they are and leave them out of the curves, misses and explorer; the results rebuild the board."""
from __future__ import annotations

import io
import json
import lzma
import shutil
from dataclasses import replace

import pyarrow.parquet as pq
from fakeruns import BASELINE, HYBRID, grid
from test_board_results import pages

from hermes_eval.record.results import to_frame
from hermes_eval.report.board_results import RANKINGS, QUERIES, LATENCY, read_results
from hermes_eval.report.options import QUALITY, ReportSettings
from hermes_eval.report.publish import build_from_results, build_reports
from hermes_eval.report.view import build_view


def _view(results):
    inputs = read_results(results).inputs
    return build_view(to_frame(inputs.records), inputs, ReportSettings()).boards[0]


def _marks(view) -> dict:
    """Every mark but the name of its test's path: ranx.compare's, or the same test on the values where a
    values-only baseline kept no qrels to check every query is judged (the p-values are the same)."""
    return {k: replace(m, method="") for k, m in view.marks.items()}


def _runs_of(results, name: str) -> set[int]:
    return set(pq.read_table(io.BytesIO((results / name).read_bytes())).column("_run").to_pylist())


def test_values_only_arms_keep_rows_marks_ties_and_verdict_and_leave_out_the_rest(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "whole")
    build_reports(tmp_path / "runs", tmp_path / "values", values_only=True)
    whole, values = _view(tmp_path / "whole" / "results"), _view(tmp_path / "values" / "results")

    # what the rows, marks, ties and the verdict read is the same
    assert list(values.board.rows["config_hash"]) == list(whole.board.rows["config_hash"])
    assert _marks(values) == _marks(whole) and any(m.verdict in ("better", "worse") for m in whole.marks.values())
    assert values.ties == whole.ties and whole.ties is not None
    assert values.hybrid == whole.hybrid and whole.hybrid is not None
    assert (values.hybrid.bm25, values.hybrid.hybrid) == (BASELINE.config_hash, HYBRID.config_hash)

    # what needs rankings or text is not kept, and the page says for which arms
    assert whole.misses is not None and whole.explorer is not None and "recall" in whole.charts
    assert values.misses is None and values.explorer is None and "recall" not in values.charts
    assert values.wins == () and values.losses == () and whole.wins + whole.losses
    assert set(values.values_only) == set(values.labels.values()) and whole.values_only == ()
    md = (tmp_path / "values" / "leaderboard.md").read_text()
    assert "Kept as per-query values only" in md and "Kept as per-query values only" not in (
        tmp_path / "whole" / "leaderboard.md").read_text()

    results = tmp_path / "values" / "results"
    index = json.loads((results / "board.json").read_text())
    assert [r.get("values_only") for r in index["runs"] if r["per_query"]] == [True] * 3
    assert _runs_of(results, RANKINGS) == set() and _runs_of(results, LATENCY) == set()
    kept = set(pq.read_table(results / QUERIES).column_names)
    had = set(pq.read_table(tmp_path / "whole" / "results" / QUERIES).column_names)
    assert {"query", "top1"} <= had - kept and set(QUALITY) & had <= kept and kept < had
    assert json.loads(lzma.decompress((results / "code.json.xz").read_bytes())) == {}
    assert sum(p.stat().st_size for p in results.iterdir()) < sum(
        p.stat().st_size for p in (tmp_path / "whole" / "results").iterdir())

    # the values-only results rebuild the same pages
    shutil.rmtree(tmp_path / "runs")
    build_from_results(results, tmp_path / "rebuilt", ReportSettings())
    a, b = pages(tmp_path / "values"), pages(tmp_path / "rebuilt")
    assert a.keys() == b.keys() and [k for k in a if a[k] != b[k]] == []


def test_a_values_only_merge_keeps_the_whole_runs_whole(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "board")
    rerun = tmp_path / "again"
    shutil.copytree(next(p for p in (tmp_path / "runs").iterdir() if HYBRID.config_hash in
                         (p / "record.json").read_text()), rerun / "hybrid")
    build_reports(rerun, tmp_path / "board", merge=True, values_only=True)
    view = _view(tmp_path / "board" / "results")
    assert view.values_only == (view.labels[HYBRID.config_hash],)
    assert view.misses is not None and HYBRID.config_hash not in {h for _, h, *_ in view.misses.rows}
    assert BASELINE.config_hash in {h for _, h, *_ in view.misses.rows}
    whole = _view_of_runs(tmp_path)
    assert view.marks == whole.marks and view.hybrid == whole.hybrid


def _view_of_runs(tmp_path):
    build_reports(tmp_path / "runs", tmp_path / "whole")
    return _view(tmp_path / "whole" / "results")


def test_a_values_only_run_keeps_the_measures_its_set_shows_and_marks_no_other(tmp_path):
    grid(tmp_path / "runs")
    shown = ReportSettings(shown=(("toy-qs", ("ndcg@10",)),))
    build_reports(tmp_path / "runs", tmp_path / "values", shown, values_only=True)
    kept = set(pq.read_table(tmp_path / "values" / "results" / QUERIES).column_names)
    assert "ndcg@10" in kept and "mrr@10" not in kept
    inputs = read_results(tmp_path / "values" / "results").inputs
    view = build_view(to_frame(inputs.records), inputs, shown).boards[0]
    assert view.marks[(HYBRID.config_hash, "ndcg@10")].verdict == "better"
    assert view.marks[(HYBRID.config_hash, "mrr@10")].note == "no per-query results to pair"


def test_committed_results_whose_run_name_matches_a_glob_become_values_only(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "board")
    hybrid_dir = next(r["_dir"] for r in read_results(tmp_path / "board" / "results").inputs.records
                      if r["config_hash"] == HYBRID.config_hash)
    (tmp_path / "none").mkdir()
    build_reports(tmp_path / "none", tmp_path / "board", merge=True, values_only=True,
                  values_only_match=(f"*{HYBRID.config_hash[:8]}*",))
    view = _view(tmp_path / "board" / "results")
    assert view.values_only == (view.labels[HYBRID.config_hash],) and HYBRID.config_hash in hybrid_dir
    results = tmp_path / "board" / "results"
    index = {r["config_hash"]: i for i, r in enumerate(json.loads((results / "board.json").read_text())["runs"])}
    for name in (RANKINGS, LATENCY):
        assert index[BASELINE.config_hash] in _runs_of(results, name)
        assert index[HYBRID.config_hash] not in _runs_of(results, name)
    assert view.marks == _view_of_runs(tmp_path).marks
