"""Ye et al.'s ranks beside ours on the same reports and gold: file order from chunk ids, their ranks as a
ranking, and each row's values against ones worked out by hand (a stored set and run read back)."""
from __future__ import annotations

import json

import pytest

from hermes_eval.core import Query, Span
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.store import save_queryset
from hermes_eval.record.trec import read_run
from hermes_eval.reproduce import ye_compare

SCOPE = "tc@1111aaaa/"


def _query(qid: str, gold: list[str], added: list[str], ranks: dict[str, int]) -> Query:
    return Query(qid, f"report {qid}", tuple(Span(SCOPE + p, 1, 9) for p in gold), repo="apache/tomcat",
                 meta={"scope": SCOPE, "gold_files_added_by_fix": added, "gold_files_not_indexed": [],
                       "ye_ranks": ranks})


def test_file_order_is_each_files_first_chunk_without_the_scope():
    ids = [SCOPE + "b/B.java:1-5", SCOPE + "a/A.java:10-20", SCOPE + "b/B.java:6-9", SCOPE + "c/C.java:1-2"]
    assert ye_compare.file_ranking(ids, SCOPE) == ["b/B.java", "a/A.java", "c/C.java"]


def test_their_ranks_become_a_ranking_with_unjudged_gaps():
    ranked = ye_compare.ye_ranking({"a/A.java": 3, "b/B.java": 1})
    assert ranked[0] == "b/B.java" and ranked[2] == "a/A.java" and len(ranked) == 3
    assert ranked[1] not in {"a/A.java", "b/B.java"}


def test_rows_separate_the_subset_the_gold_rule_and_the_ranker(tmp_path):
    # r1: gold A, the fix also added N; ours ranks B, A (A at 2); theirs ranks A at 1.
    # r2: released ranks absent (not in their subset); ours ranks C first.
    save_queryset(QuerySet("ye-toy", (_query("r1", ["a/A.java"], ["n/N.java"], {"a/A.java": 1}),
                                      _query("r2", ["c/C.java"], [], {}))), tmp_path / "ye-toy")
    run = tmp_path / "run"
    run.mkdir()
    (run / "record.json").write_text(json.dumps({"system": "rank_bm25", "chunker": "whole_file"}))
    (run / "run.trec").write_text(f"r1 Q0 {SCOPE}b/B.java:1-9 1 2.0 x\nr1 Q0 {SCOPE}a/A.java:1-9 2 1.0 x\n"
                                  f"r2 Q0 {SCOPE}c/C.java:1-9 1 3.0 x\n")
    rows = dict(ye_compare.compare(ye_compare.read_reports(tmp_path / "ye-toy"),
                                   {"ours": read_run(run / "run.trec")}))
    every, subset, their_gold = (rows[f"ours: {s}"] for s in ("every report, our gold", "released subset, our gold",
                                                              "released subset, their gold"))
    lr = rows["Ye et al. LR (released ranks): released subset, their gold"]
    assert every["n"] == 2 and every["map"] == pytest.approx((0.5 + 1.0) / 2) and every["acc@1"] == 0.5
    assert subset["n"] == 1 and subset["map"] == pytest.approx(0.5) and subset["mrr"] == pytest.approx(0.5)
    assert their_gold["map"] == pytest.approx(0.25) and their_gold["acc@5"] == 1.0  # N counts as a miss
    assert lr["n"] == 1 and lr["map"] == pytest.approx(0.5) and lr["mrr"] == 1.0 and lr["acc@1"] == 1.0
    assert ye_compare.main(["--queries", str(tmp_path / "ye-toy"), str(run), "--out", str(tmp_path / "t.md")]) == 0
    assert "| whole_file/rank_bm25: released subset, their gold | 1 | 0.2500 | 0.5000 |" in (tmp_path / "t.md").read_text()


def test_the_kinds_entry_gives_the_table_and_a_row_per_report(tmp_path):
    from hermes_eval.config.benchmarks import benchmark
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.reproduce.kind import Request
    from hermes_eval.reproduce.registry import reproduction

    save_queryset(QuerySet("ye-toy", (_query("r1", ["a/A.java"], ["n/N.java"], {"a/A.java": 1}),
                                      _query("r2", ["c/C.java"], [], {}))), tmp_path / "ye-toy")
    run = tmp_path / "run"
    run.mkdir()
    (run / "record.json").write_text(json.dumps({"system": "rank_bm25", "chunker": "whole_file"}))
    (run / "run.trec").write_text(f"r1 Q0 {SCOPE}b/B.java:1-9 1 2.0 x\nr1 Q0 {SCOPE}a/A.java:1-9 2 1.0 x\n")
    out = reproduction("ye_compare")(Request(benchmark("ye", CONF_DIR), "ye-tomcat", (run,),
                                             options=(("queries", str(tmp_path / "ye-toy")),)))
    rows = {r["qid"]: r for r in out.per_query}
    assert rows["r1"]["whole_file/rank_bm25 ap"] == pytest.approx(0.5)
    assert rows["r1"]["whole_file/rank_bm25 ap their gold"] == pytest.approx(0.25)  # N: a miss
    assert rows["r1"]["LR ap their gold"] == pytest.approx(0.5) and "LR ap their gold" not in rows["r2"]
    assert rows["r2"]["whole_file/rank_bm25 ap"] == 0.0 and not rows["r2"]["released"]
    assert out.summary["ye-tomcat"]["whole_file/rank_bm25: released subset, their gold"]["map"] == pytest.approx(0.25)
    assert "| whole_file/rank_bm25: released subset, their gold | 1 | 0.2500 | 0.5000 |" in out.markdown
    # LR's values, what the record's anchors type (here the toy set's: AP 1/2 with N a miss, MRR 1, Acc@1 1)
    lr = {p.metric: p.value for p in out.published if p.queryset == "ye-tomcat"}
    assert lr == pytest.approx({"file_map": 0.5, "file_mrr": 1.0, "file_hit@1": 1.0, "file_hit@5": 1.0,
                                "file_hit@10": 1.0})


def test_an_unimported_set_is_one_line_naming_the_import(tmp_path):
    from hermes_eval.config.benchmarks import benchmark
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.core.errors import UserError
    from hermes_eval.reproduce.kind import Request

    with pytest.raises(UserError, match="no imported set .*--variants ye-tomcat --steps import"):
        ye_compare.reproduce(Request(benchmark("ye", CONF_DIR), "ye-tomcat", options=(("queries", str(tmp_path)),)))
