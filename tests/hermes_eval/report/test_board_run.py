"""What a board reads of a run: a ranking kept as its top ids and its judged positions scores exactly as
the whole ranking (ranx metrics at any depth, paired tests, first gold rank, miss causes)."""
from __future__ import annotations

from pathlib import Path

from fakeruns import GOLD_LINES, grid

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.measures import measure_values
from hermes_eval.judge.relevance import file_rankings
from tests.hermes_eval.judge.ranx_oracle import ranx_compare
from hermes_eval.record.folder import RunFiles
from hermes_eval.record.results import read_record
from hermes_eval.report.board_run import PLACEHOLDER, BoardRun, Ranked, board_metrics, board_table, from_folder
from hermes_eval.report.head_to_head import Arm, first_gold_rank, miss_cause
from hermes_eval.report.miss_table import MISS_K
from hermes_eval.report.options import EXPLORER_QUERY_CHARS, EXPLORER_TOP, KEEP_TOP, RECALL_KS, ReportSettings

METRICS = [*(f"recall@{k}" for k in RECALL_KS), "ndcg@10", "ndcg@100", "mrr@10", "mrr@100", "hits@5", "precision@50"]


def _full_and_kept():
    """Rankings that put judged documents above, at and far below the kept top, repeat ids below it,
    rank nothing, or are missing; and qrels with a grade-2 and a judged-irrelevant document."""
    other = [f"pkg/other{i}.py:1-9" for i in range(300)]
    full = {
        "deep": other[:40] + ["pkg/a.py:1-9"] + other[40:130] + ["pkg/a.py:10-20"] + other[130:200],
        "top": ["pkg/a.py:1-9", *other[:5], "pkg/a.py:10-20", *other[5:60]],
        "twice": other[:12] + [other[3], "pkg/b.py:1-9", other[20]] + other[13:30] + [other[20], "pkg/b.py:1-9"],
        "zero": other[:30] + ["pkg/c.py:1-9"] + other[30:50],  # its only judged document is irrelevant
        "empty": [],
    }
    qrels = {"deep": {"pkg/a.py:1-9": 1, "pkg/a.py:10-20": 2}, "top": {"pkg/a.py:1-9": 1, "pkg/a.py:10-20": 1},
             "twice": {"pkg/b.py:1-9": 1}, "zero": {"pkg/c.py:1-9": 0, "pkg/d.py:1-9": 1},
             "empty": {"pkg/a.py:1-9": 1}, "unranked": {"pkg/a.py:1-9": 1}}
    kept = {q: Ranked.of(r, qrels.get(q, {}), KEEP_TOP).ranking() for q, r in full.items()}
    return full, kept, qrels


def test_kept_rankings_score_as_whole_ones_at_every_depth():
    full, kept, qrels = _full_and_kept()
    assert all(len(kept[q]) == len(full[q]) and kept[q][:KEEP_TOP] == full[q][:KEEP_TOP] for q in full)
    assert sum(d.startswith(PLACEHOLDER) for r in kept.values() for d in r) >= 300  # most positions dropped
    assert measure_values(qrels, {q: ordered_scores(r) for q, r in kept.items()}, METRICS) == \
        measure_values(qrels, {q: ordered_scores(r) for q, r in full.items()}, METRICS)
    shuffled = {q: list(reversed(r)) for q, r in full.items()}
    assert ranx_compare(qrels, kept, shuffled, ["ndcg@10", "recall@100"]) == \
        ranx_compare(qrels, full, shuffled, ["ndcg@10", "recall@100"])
    files = file_rankings(full)
    file_qrels = {q: {d.rsplit(":", 1)[0]: v for d, v in rel.items()} for q, rel in qrels.items()}
    kept_files = {q: Ranked.of(r, file_qrels.get(q, {}), 0).ranking() for q, r in files.items()}
    assert measure_values(file_qrels, {q: ordered_scores(r) for q, r in kept_files.items()}, METRICS) == \
        measure_values(file_qrels, {q: ordered_scores(r) for q, r in files.items()}, METRICS)


def test_no_board_figure_reads_an_unjudged_id_below_the_kept_top():
    assert EXPLORER_TOP <= KEEP_TOP and MISS_K <= KEEP_TOP


def test_a_board_reads_a_run_folder_as_its_files_say(tmp_path):
    """First gold ranks and miss causes from the kept form agree with the run folder's own files."""
    for run_dir in grid(tmp_path / "runs")[:3]:
        record = read_record(run_dir / "record.json")
        files = RunFiles(run_dir)
        board = from_folder(files, board_metrics(ReportSettings()))
        whole, kept = Arm(run_dir, record, files), Arm(run_dir, record, board)
        for q in files.rankings:
            assert first_gold_rank(kept, q) == first_gold_rank(whole, q)
            assert miss_cause(kept, q, MISS_K) == miss_cause(whole, q, MISS_K)
        assert board.gold == {q: ((next(iter(files.file_qrels[q])), GOLD_LINES[0], GOLD_LINES[-1]),)
                              for q in files.line_qrels}
        assert {s: list(v) for s, v in board.stage_ms().items()} == {
            s: sorted(v) for s, v in files.stage_ms().items()}
        assert isinstance(board, BoardRun) and board.exists()


def test_the_board_table_keeps_what_boards_show():
    import pandas as pd

    df = pd.DataFrame({"qid": ["a", "b"], "query": ["x" * (EXPLORER_QUERY_CHARS + 5), "short"],
                       "ndcg@10": [0.5, 1.0], "hit@3": [1.0, 1.0], "ms_total": [1.0, 2.0],
                       "top10": ['["a.py:1-9", "b.py:1-9"]', "[]"], "top10_scores": ["[2, 1]", "[]"]})
    out = board_table(df, board_metrics(ReportSettings()))
    assert list(out.columns) == ["qid", "query", "ndcg@10", "top1"]
    assert len(out["query"][0]) < EXPLORER_QUERY_CHARS + 60 and "characters left out" in out["query"][0]
    assert list(out["top1"]) == ["a.py:1-9", ""] and out["query"][1] == "short"
    assert "hit@3" in board_table(df, board_metrics(ReportSettings(columns=("hit@3",)))).columns


def test_a_run_without_per_query_results_reads_as_absent(tmp_path):
    board = from_folder(RunFiles(Path(tmp_path)), board_metrics(ReportSettings()))
    assert not board.exists() and board.per_query.empty and board.rankings == {} and board.stage_ms() == {}
