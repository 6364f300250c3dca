"""Bench4BL's AP and TP (scripts/results/Evaluator.py) against hand-computed examples, the answer ranks our
file ranking gives, and the published tables read by their headers (Old_AP orders its tools unlike
Old_MAP)."""
from __future__ import annotations

import pytest

from hermes_eval.reproduce.bench4bl_compare import (answer_ranks, average_precision, published, read_table, top_precision,
                                                wins)


def test_average_precision_divides_by_every_answer_file_and_counts_ranks_from_zero():
    # one answer at rank 0: 1/1
    assert average_precision([0], 1) == 1.0
    # answers at ranks 0 and 2 of 2: (1/1 + 2/3) / 2 = 0.8333...
    assert average_precision([2, 0], 2) == pytest.approx((1 + 2 / 3) / 2)
    # the same two found, but the report names 4 answers: (1 + 2/3) / 4
    assert average_precision([0, 2], 4) == pytest.approx(5 / 12)
    # Bench4BL's Old_AP row AspectJ 28919, BugLocator: one answer at rank 7 -> 1/8 = 0.1250
    assert round(average_precision([7], 1), 4) == 0.125
    # ranks 1, 4, 9 of 3 answers: (1/2 + 2/5 + 3/10) / 3 = 0.4
    assert average_precision([9, 1, 4], 3) == pytest.approx(0.4)
    assert average_precision([], 3) == 0.0
    with pytest.raises(ValueError):
        average_precision([0], 0)


def test_top_precision_is_the_reciprocal_of_the_first_answers_rank_plus_one():
    assert top_precision([4, 2, 9]) == pytest.approx(1 / 3)
    assert top_precision([0]) == 1.0
    assert top_precision([]) == 0.0


def test_an_answer_ranks_at_its_best_corpus_file_and_unfound_answers_are_left_out():
    files = ["a/X.java", "gtk/org/W.java", "b/Y.java", "win32/org/W.java", "a/X.java"]
    gold_of = {"org/W.java": ["win32/org/W.java", "gtk/org/W.java"], "a/X.java": ["a/X.java"], "new/Z.java": []}
    assert sorted(answer_ranks(files, gold_of)) == [0, 1]
    assert average_precision(answer_ranks(files, gold_of), 3) == pytest.approx((1 + 2 / 2) / 3)


def test_tables_are_read_by_their_headers(tmp_path):
    (tmp_path / "analysis").mkdir()
    tables = {
        "Old_MAP": "Group\tProject\tBugLocator\tBRTracer\tBLUiR\r\nOld\tZXing\t0.3306\t0.3937\t0.4598\r\n",
        "Old_MRR": "Group\tProject\tBugLocator\tBRTracer\tBLUiR\r\nOld\tZXing\t0.3837\t0.4219\t0.5626\r\n",
        "Old_AP": "Group\tProject\tBugID\tBugLocator\tBLUiR\tBRTracer\r\n"
                  "Previous\tZXing\t364\t0.5000 \t0.2500 \t0.1000 \r\nPrevious\tSWT\t1\t1.0000 \t1.0000 \t1.0000 \r\n",
        "Old_TP": "Group\tProject\tBugID\tBugLocator\tBLUiR\tBRTracer\r\nPrevious\tZXing\t364\t0.5000 \t0.2500 \t0.1000 \r\n"}
    for name, text in tables.items():
        (tmp_path / "analysis" / f"{name}.txt").write_text(text, newline="")
    header, rows = read_table(tables["Old_AP"])
    assert header[3:] == ["BugLocator", "BLUiR", "BRTracer"] and rows[0]["BLUiR"] == "0.2500"
    got = published(tmp_path, "ZXing")
    assert got["ap"] == {"364": {"BugLocator": 0.5, "BLUiR": 0.25}} and got["tp"]["364"]["BLUiR"] == 0.25
    assert got["map"] == {"BugLocator": 0.3306, "BLUiR": 0.4598} and got["mrr"]["BLUiR"] == 0.5626


def test_wins_count_level_within_the_published_rounding():
    assert wins([0.5, 0.25, 0.12504, 0.0], [0.25, 0.5, 0.125, 0.0]) == {"above": 1, "level": 2, "below": 1}


def test_every_anchor_of_the_record_is_the_value_its_cited_table_gives():
    """The record's 12 anchors, typed by hand, against analysis/Old_MAP.txt and Old_MRR.txt as the slice keeps
    them (exatoa/Bench4BL 5480cb0ccb37, unchanged): each read by the reproduction and agreeing."""
    from pathlib import Path

    from hermes_eval.config.benchmarks import benchmark
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.reproduce.anchor_check import check
    from hermes_eval.reproduce.bench4bl_compare import cited

    record = benchmark("bench4bl", CONF_DIR)
    read = cited(Path(__file__).resolve().parents[2] / "slices" / "bench4bl", record)
    checked = check(record, read)
    assert len(checked) == len(record.anchors) == 12
    assert [c.line(record) for c in checked if not c.agrees] == []
    assert {c.read.tool for c in checked} == {"BugLocator", "BLUiR"}  # each row read from its own tool's column
