"""Leaderboards built from fake-but-consistent run directories: content, escaping, marks, files."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from fakeruns import BASELINE, DENSE_AST, HYBRID, PLANTED, PLANTED_CHUNK, PLANTED_ERROR, grid

from hermes_eval.report.publish import build_reports
from hermes_eval.report.markdown import md_cell
from hermes_eval.report.options import FAIR_METRICS, ReportSettings, first_present
from hermes_eval.report.table import boards
from hermes_eval.record.results import collect


def test_files_written_and_results_table_lists_failed_runs(built):
    for name in ("results.parquet", "leaderboard.md", "leaderboard.html", "charts/toy-qs-pareto.png",
                 "charts/toy-qs-recall.png", "charts/toy-qs-latency.png", "explorer/toy-qs.js", "results/board.json"):
        assert (built / name).stat().st_size > 0, name
    df = pd.read_parquet(built / "results.parquet")
    assert set(df["status"]) == {"ok", "failed"}
    assert df.loc[df["status"] == "failed", "error"].iloc[0] == PLANTED_ERROR
    assert {"file_recall@10_ci_low", "total_p95_ms", "hygiene_self_retrieval_share"} <= set(df.columns)


def test_html_loads_only_files_beside_it_and_escapes_untrusted_text(built):
    html = (built / "leaderboard.html").read_text()
    assert "http://" not in html and "https://" not in html and "data:image" not in html
    sources = re.findall(r'src="([^"]*)"', html)
    assert sorted(sources) == ["charts/toy-qs-latency.png", "charts/toy-qs-pareto.png", "charts/toy-qs-recall.png",
                               "explorer/toy-qs.js"]
    assert all((built / s).is_file() for s in sources)
    assert html.count("<script>") == 1  # ours; the planted ones are escaped
    assert "&lt;script&gt;document.title=" in html
    assert "evil&lt;script&gt;window.__pwned=2&lt;/script&gt;.py:1-9" in html
    assert "&lt;script&gt;window.__pwned=4" in html
    assert PLANTED not in html and PLANTED_CHUNK not in html
    assert "Content-Security-Policy" in html and "script-src &#39;sha256-" in html


def test_csp_hash_matches_the_inline_script(built):
    import base64
    import hashlib
    from html import unescape

    html = (built / "leaderboard.html").read_text()
    script = html.split("<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    csp = unescape(html.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0])
    assert f"script-src 'sha256-{digest}' 'self'" in csp and "default-src 'none'" in csp and "img-src 'self';" in csp


def test_fair_metric_ranks_when_chunkers_differ_and_bm25_is_the_default_baseline(built):
    df, _ = collect(built.parent / "runs")
    (b,) = boards(df)
    assert b.chunkers_differ and b.sort_metric == "file_recall@10"
    assert list(b.rows["config_hash"]) == [HYBRID.config_hash, DENSE_AST.config_hash, BASELINE.config_hash]
    assert b.baseline == BASELINE.config_hash and "BM25" in b.baseline_reason
    (b2,) = boards(df, baseline="python_ast/exact")
    assert b2.baseline == DENSE_AST.config_hash


def test_a_records_main_score_ranks_its_set_when_fair_to_the_chunkers(built):
    df, _ = collect(built.parent / "runs")
    (b,) = boards(df, main_scores={"toy-qs": "line_coverage@10"})
    assert b.sort_metric == "line_coverage@10" and b.quality[0] == "line_coverage@10"
    values = list(b.rows["line_coverage@10"])
    assert values == sorted(values, reverse=True)
    (chunk_level,) = boards(df, main_scores={"toy-qs": "mrr@10"})  # chunkers differ: not comparable
    assert chunk_level.sort_metric == "file_recall@10"
    (other,) = boards(df, main_scores={"another-set": "line_coverage@10"})
    assert other.sort_metric == "file_recall@10"


def test_the_history_board_takes_each_records_main_score():
    from hermes_eval.cli.main import CONF_DIR
    from hermes_eval.report.anchors import main_scores_for

    scores = dict(main_scores_for("history", CONF_DIR))
    assert scores["ye-tomcat"] == "file_map" and scores["blizzard-tomcat70"] == "file_mrr@10"
    assert main_scores_for("no-such-board", CONF_DIR) == ()


def test_fair_preference_takes_the_first_metric_present():
    assert first_present(FAIR_METRICS, ["file_recall@10", "line_coverage@10"]) == "file_recall@10"
    assert first_present(FAIR_METRICS, ["file_recall@10", FAIR_METRICS[0]]) == FAIR_METRICS[0]


def test_markdown_marks_significance_and_escapes_cells(built):
    md = (built / "leaderboard.md").read_text()
    hybrid = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert "▲" in hybrid and "(baseline)" in md
    assert "rank\\_bm25+exact w\\_dense=0.5" in hybrid
    assert "&lt;script&gt;" in md and "<script>" not in md
    assert "](charts/toy-qs-pareto.png)" in md
    for block in re.split(r"\n(?!\|)", md):  # contiguous table lines keep one column count
        rows = [line for line in block.splitlines() if line.startswith("|")]
        assert len({line.count("|") for line in rows}) <= 1, rows


@pytest.mark.parametrize("raw, cell", [
    ("a|b", "a&#124;b"), ("`x`", "\\`x\\`"), ("[t](u)", "\\[t\\]\\(u\\)"), ("<b>", "&lt;b&gt;"),
    ("two\nlines", "two lines"), ("a_b*c", "a\\_b\\*c"),
])
def test_md_cell_escapes(raw, cell):
    assert md_cell(raw) == cell


def test_duplicate_hash_keeps_newest_and_baseline_option_changes_marks(tmp_path):
    from fakeruns import Arm, queries, write_arm

    qs = queries(plant=False)
    write_arm(tmp_path / "runs", BASELINE, qs)
    newer = Arm(**{**BASELINE.__dict__, "finished_at": "2026-06-01T00:00:00Z", "hit_rate": 0.95})
    write_arm(tmp_path / "runs" / "nested", newer, qs)
    write_arm(tmp_path / "runs", HYBRID, qs, seed=1)
    df, _ = collect(tmp_path / "runs")
    assert len(df) == 2
    assert df.loc[df["config_hash"] == BASELINE.config_hash, "finished_at"].iloc[0] == "2026-06-01T00:00:00Z"
    build_reports(tmp_path / "runs", tmp_path / "out", ReportSettings(baseline=HYBRID.config_hash[:8]))
    md = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "chosen with --baseline" in md


def test_empty_runs_dir_still_renders(tmp_path):
    paths = build_reports(tmp_path / "none", tmp_path / "out")
    assert "make sweep" in (tmp_path / "out" / "leaderboard.html").read_text()
    assert all(p.exists() for p in paths)


def test_grid_helper_is_deterministic(tmp_path):
    a = grid(tmp_path / "a", plant=False)
    b = grid(tmp_path / "b", plant=False)
    assert (a[0] / "run.trec").read_text() == (b[0] / "run.trec").read_text()
