"""The markdown board a person reads: each set's table shows its record's main score, its field's measures
and its declared columns, nothing else (the HTML page keeps every measure); an anchor row compares the
arm the record names and, where the board has a better one, says why."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from fakeruns import BASELINE, HYBRID, queries, write_arm

from hermes_eval.config.benchmarks import FIELD_MEASURES, boards, parse
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError
from hermes_eval.report.anchors import anchors_for, shown_for
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.publish import build_reports

SET = "cosqa-test"  # a variant of the record below (cosqa's, moved to a board of its own)
FIELD = "bug_localization"
REASON = "the published system is plain BM25 over whole files"


def _anchor(system: str, **extra) -> dict:
    return {"querysets": [SET], "published": f"A paper: {system}", "metric": "file_mrr@10", "value": 0.3,
            "system": system, "chunker": "lines", "source": "its table 2", "note": "their corpus is bigger",
            **extra}


def _record(**changes) -> dict:
    data = yaml.safe_load((CONF_DIR / "benchmarks" / "cosqa.yaml").read_text())
    data["variants"][SET]["overlays"] = {"cosqa": "lines"}  # chunked as the fake arms are
    data.update(name="toy", board="reports/toy", main_score="file_mrr@10", columns=["file_recall@5"],
                field=FIELD, anchors=[_anchor(BASELINE.system, arm_reason=REASON), _anchor(HYBRID.system),
                                      _anchor(BASELINE.system, published="Another paper", arm_reason=REASON)])
    data.update(changes)
    return data


def _conf(tmp_path: Path) -> Path:
    conf = tmp_path / "conf"
    (conf / "benchmarks").mkdir(parents=True)
    (conf / "benchmarks" / "toy.yaml").write_text(yaml.safe_dump(_record()))
    return conf


def _per_query(hit: float) -> dict[str, dict[str, float]]:
    """Per-query values of the field's measures (hit: the share of queries that find their gold first)."""
    qs = queries(plant=False)
    first = {q.qid: float(i < hit * len(qs)) for i, q in enumerate(qs)}
    return {m: dict(first) for m in FIELD_MEASURES[FIELD]}


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> tuple[str, str]:
    """(markdown, HTML) of a board of two arms built with the toy record's settings."""
    tmp = tmp_path_factory.mktemp("board")
    conf = _conf(tmp)
    qs = queries(plant=False)
    for k, (arm, hit) in enumerate(((BASELINE, 0.3), (HYBRID, 0.8))):
        arm = type(arm)(**{**arm.__dict__, "extra_metrics": _per_query(hit)})
        write_arm(tmp / "runs", arm, qs, seed=k, queryset=SET, hygiene={"leak_share": 0.0, "unanswerable": 0})
    known = boards(conf)["toy"]
    anchors, columns = anchors_for("toy", conf)
    settings = ReportSettings(columns=columns, anchors=anchors, main_scores=known.main_scores,
                              shown=shown_for("toy", conf))
    build_reports(tmp / "runs", tmp / "out", settings, anchors="toy")
    return (tmp / "out" / "leaderboard.md").read_text(), (tmp / "out" / "leaderboard.html").read_text()


def _head(md: str) -> list[str]:
    """The metric columns of the first table: between ``config`` and ``p50 ms``."""
    cells = [c.strip().replace("\\", "") for c in next(ln for ln in md.splitlines() if ln.startswith("| \\#")).split("|")]
    return cells[cells.index("config") + 1:cells.index("p50 ms")]


def test_the_markdown_table_shows_the_main_score_field_measures_and_declared_columns_only(board):
    md, html = board
    record = _record()
    expected = list(dict.fromkeys([record["main_score"], *FIELD_MEASURES[FIELD], *record["columns"]]))
    assert _head(md) == expected
    # what else the runs measured stays on the HTML page, and the markdown says where
    for other in ("ndcg@10", "recall@10", "line_coverage@10"):
        assert other not in _head(md) and f">{other}<" in html
    assert "ndcg@10" in next(ln for ln in md.splitlines() if ln.startswith("Columns: the measures"))
    # the HTML table leads with the same measures, in the same order, and keeps the others after them
    heads = re.findall(r'<th[^>]*>([^<]+?)(?: ▾)?</th>', html.split('<table', 1)[1].split('</thead>', 1)[0])
    metric_heads = [h.strip() for h in heads if h.strip() in {*expected, "ndcg@10", "recall@10", "line_coverage@10"}]
    assert metric_heads[:len(expected)] == expected and "ndcg@10" in metric_heads[len(expected):]


def test_the_markdown_links_nothing_a_code_host_lacks(board):
    md, _ = board
    targets = re.findall(r"\]\(([^)]+)\)", md)
    assert targets and all(t.endswith("-pareto.png") for t in targets)  # recall/latency charts are not committed
    assert "On the HTML page: Recall@k curves, latency CDFs per stage." in md
    assert "Hygiene: no query's text is verbatim" in md and "self-ret." not in md  # all clean: a sentence, no columns


def test_a_set_no_record_names_keeps_every_quality_column(board, tmp_path):
    qs = queries(plant=False)
    write_arm(tmp_path / "runs", BASELINE, qs, queryset="unnamed-set")
    build_reports(tmp_path / "runs", tmp_path / "out", ReportSettings(shown=(("other-set", ("file_mrr@10",)),)))
    head = _head((tmp_path / "out" / "leaderboard.md").read_text())
    assert {"recall@10", "ndcg@10", "mrr@10", "file_recall@10", "line_coverage@10"} <= set(head)


def test_an_anchor_row_names_the_records_arm_and_says_why_it_is_not_the_best(board):
    md, html = board
    rows = {ln.split(" | ")[0][2:]: ln for ln in md.splitlines() if ln.startswith(("| A paper", "| Another paper"))}
    for mine in ("A paper: rank\\_bm25", "Another paper"):  # the record's arm, not the board's best: one reason
        assert "| lines/rank\\_bm25 (a) |" in rows[mine]
    best = rows["A paper: rank\\_bm25+exact w\\_dense=0.5"]
    assert "| lines/rank\\_bm25+exact w\\_dense=0.5 |" in best  # the best arm needs no reason
    why = next(ln for ln in md.splitlines() if ln.startswith("- (a)"))
    assert "lines/rank\\_bm25 is compared" in why and "(lines/rank\\_bm25+exact w\\_dense=0.5)" in why
    assert why.endswith(REASON)
    assert "not this board's best arm" in html
    assert md.count("their corpus is bigger") == 1 == html.count("their corpus is bigger")  # once, below the table
    assert md.count(REASON) == 1 == html.count(REASON)  # one reason for the two rows that share it


def test_an_anchor_not_on_the_best_arm_without_a_reason_says_so(tmp_path):
    from hermes_eval.report.markdown import render_markdown
    from hermes_eval.report.board_inputs import from_runs
    from hermes_eval.record.results import load_records, to_frame
    from hermes_eval.report.view import build_view

    qs = queries(plant=False)
    for k, arm in enumerate((BASELINE, HYBRID)):
        write_arm(tmp_path / "runs", arm, qs, seed=k, queryset=SET)
    records = load_records(tmp_path / "runs")
    anchors = parse(_record(anchors=[_anchor(BASELINE.system)]), Path("toy.yaml")).anchors
    view = build_view(to_frame(records), from_runs(records, ()), ReportSettings(anchors=anchors))
    why = next(ln for ln in render_markdown(view).splitlines() if ln.startswith("- (a)"))
    assert "no reason given in the record" in why


@pytest.mark.parametrize("changes, error", [
    ({"field": "astronomy"}, r"toy.yaml: field 'field' must be one of bug_localization"),
    ({"anchors": [_anchor("x", arm_reason="  ")]}, r"toy.yaml anchors\[0\]: field 'arm_reason' must be text"),
    ({"anchors": [_anchor("x", arm_reason=["a"])]}, r"toy.yaml anchors\[0\]: field 'arm_reason' must be text"),
    ({"anchors": [_anchor("x", chunker="python_ast")]},
     r"toy.yaml anchors\[0\]: chunker 'python_ast' chunks none of its query sets \(their overlays': lines\)")])
def test_a_mistake_in_field_or_arm_reason_is_one_line(changes, error):
    with pytest.raises(UserError, match=error) as err:
        parse(_record(**changes), Path("toy.yaml"))
    assert "\n" not in str(err.value)


def test_no_committed_board_leaves_an_anchor_arm_unexplained():
    """Every anchor of a committed board whose arm is not the board's best gives its reason (make boards
    writes the sentence below when a record's anchor has none)."""
    boards_md = sorted((CONF_DIR.parent / "reports").glob("**/leaderboard.md"))
    assert boards_md
    unexplained = [str(p) for p in boards_md if "no reason given in the record" in p.read_text(encoding="utf-8")]
    assert unexplained == []


def test_a_breakdown_of_one_stratum_is_left_out(board):
    """Every query is Python: a per-language table would repeat the main column; two repositories stay."""
    md, html = board
    assert "**Per language:" not in md and "Per language: " not in html
    assert "**Per repository: file\\_mrr@10**" in md and "Per repository: file_mrr@10" in html
