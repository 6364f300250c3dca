"""Result ids stored relative to their query's snapshot come back whole: snapshot ids, plain paths, ids
outside the prefix, ids that look like the escape; and a board's results keep every ranking, qrel, gold
span and first result exactly (format 2: relative ids, qrels shared between the arms of a set)."""
from __future__ import annotations

import pandas as pd
import pyarrow.parquet as pq

from hermes_eval.report.board_inputs import BoardInputs
from hermes_eval.report.board_results import read_results, write_results
from hermes_eval.report.board_run import TOP1, BoardRun, Ranked
from hermes_eval.report.relative_ids import ESCAPE, absolute, common_snapshot, relative, snapshot_of

SNAP = "tomcat@abcdef12/"
IDS = [f"{SNAP}java/org/A.java:1-80", f"{SNAP}java/org/B.java", "tomcat@99999999/java/org/A.java:1-80",
       "java/org/A.java:1-80", "", "/abs/path.py", f"{ESCAPE}odd", f"{SNAP}{ESCAPE}odder", "a@b", "x@y/"]


def test_every_id_comes_back_whole_under_any_prefix():
    for prefix in (SNAP, "", "java/", "tomcat@99999999/"):
        assert [absolute(prefix, relative(prefix, d)) for d in IDS] == IDS
    assert relative(SNAP, f"{SNAP}java/org/B.java") == "java/org/B.java"  # the point: shorter and shared
    assert relative(SNAP, "tomcat@99999999/x") == f"{ESCAPE}tomcat@99999999/x"  # outside: whole


def test_the_prefix_is_the_snapshot_most_ids_name():
    assert snapshot_of(f"{SNAP}java/A.java") == SNAP and snapshot_of("java/A.java") == "" and snapshot_of("a@b") == ""
    assert common_snapshot([f"{SNAP}a", "z@1/b", f"{SNAP}c", "plain/d"]) == SNAP
    assert common_snapshot(["java/a", "src/b"]) == ""  # a set of one snapshot: ids stay as they are
    assert common_snapshot([]) == ""


def _run(qrels: dict, tops: dict, outside: str, file_pos: int = 3) -> BoardRun:
    ranked = {q: Ranked(tuple(f"{p}{f}.java:1-9" for f in top) + (outside,), ((14, f"{p}gold.java:1-9"),), 100)
              for q, (p, top) in tops.items()}
    files = {q: Ranked((), ((file_pos, f"{p}gold.java"),), 100) for q, (p, _) in tops.items()}
    per_query = pd.DataFrame({"qid": list(tops), "query": ["a bug"] * len(tops), "ndcg@10": [0.5] * len(tops),
                              TOP1: [r.top[0] for r in ranked.values()]})
    per_query.loc[0, TOP1] = "not the ranking's first"  # kept as it is
    return BoardRun(per_query, ranked, files,
                    {q: {f"{p}gold.java:1-9": 1, f"{p}other.java:1-3": 0} for q, (p, _) in tops.items()} | qrels,
                    {q: {f"{p}gold.java": 1} for q, (p, _) in tops.items()},
                    {q: ((f"{p}gold.java", 1, 9),) for q, (p, _) in tops.items()})


def test_results_keep_snapshot_and_plain_rankings_exactly(tmp_path):
    tops = {"1": (SNAP, ["a", "b"]), "2": ("tomcat@00000000/", ["c"]), "3": ("", ["plain/d"])}
    runs = {"h1": _run(qrels={}, tops=tops, outside="elsewhere/x.java:1-2", file_pos=14),  # one chunk per file
            "h2": _run(qrels={}, tops=tops, outside=f"{ESCAPE}strange"),  # same qrels: shared
            "h3": _run(qrels={"2": {"tomcat@00000000/gold.java:1-9": 2}}, tops=tops, outside="z@1/y")}
    records = [{"config_hash": h, "queryset": "s", "status": "ok", "_dir": f"runs/{h}"} for h in runs]
    write_results(tmp_path, BoardInputs(records, runs, {}), {}, frozenset({"ndcg@10"}))
    got = read_results(tmp_path).inputs.runs
    for h, run in runs.items():
        back = got[h]
        assert (back.ranked, back.file_ranked, back.gold) == (run.ranked, run.file_ranked, run.gold)
        assert [list(back.qrels[q].items()) for q in tops] == [list(run.qrels[q].items()) for q in tops]
        assert back.file_qrels == run.file_qrels
        pd.testing.assert_frame_equal(back.per_query, run.per_query)
    stored = pq.read_table(tmp_path / "rankings.parquet").to_pylist()
    assert [r["prefix"] for r in stored[:3]] == [SNAP, "tomcat@00000000/", ""]
    assert stored[0]["top"] == ["a.java:1-9", "b.java:1-9", f"{ESCAPE}elsewhere/x.java:1-2"]
    assert [r["shared"] for r in stored] == [None] * 3 + [0] * 3 + [0, None, 0]  # h3's query 2 has its own qrels
    # file ranking (h1 only: one chunk per file), gold spans (from the span ids), never the file qrels (their
    # grade-0 file is not among the file qrels here); rows sharing their qrels with h1's derive no more
    assert [r["derived"] for r in stored] == [5] * 3 + [None] * 3 + [None, 4, None]


def test_committed_boards_of_format_1_still_read_as_they_are():
    """Boards committed before format 2 (absolute ids, gzip JSON) rebuild without a rebuild from runs."""
    import json
    from pathlib import Path

    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.report.anchors import limits_for
    from hermes_eval.report.options import BoardLimits

    repo = Path(__file__).resolve().parents[3]
    read = []
    for path in sorted(repo.glob("reports/**/results/board.json")):
        index = json.loads(path.read_text())
        limits = limits_for((index.get("settings") or {}).get("anchors"), CONF_DIR)
        if index["format"] != 1 or limits != BoardLimits(query_chars=index["query_chars"]):
            continue  # written in format 2, or for other limits than its board's now: rebuilt from its runs
        got = read_results(path.parent, limits)
        assert len(got.inputs.records) == len(index["runs"])
        ids = [d for r in got.inputs.runs.values() for rk in r.ranked.values() for d in rk.top]
        assert ids and not any(d.startswith(ESCAPE) for d in ids)
        read.append(path)
    assert read, "no committed board of format 1 left to read"
