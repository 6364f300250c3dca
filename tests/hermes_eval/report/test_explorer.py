"""The explorer's data: escaped for a script element, gold spans and code from the run's corpus, and per
arm the first gold rank, cause and hit marks agreeing with the run's own files."""
from __future__ import annotations

import json
import re
from pathlib import Path

from fakeruns import BASELINE, GOLD_LINES, PLANTED, PLANTED_CODE, PLANTED_CHUNK, grid

from hermes_eval.record.folder import RunFiles
from hermes_eval.record.results import read_record
from hermes_eval.report.board_inputs import set_code
from hermes_eval.report.board_run import board_metrics, elide, from_folder
from hermes_eval.report.explorer import explorer, script_json
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.gold_code import clip, gold_spans
from hermes_eval.report.head_to_head import CAUSES


def _payload(script: str, slug: str) -> dict:
    m = re.fullmatch(rf'\(window.HERMES_EXPLORER = window.HERMES_EXPLORER \|\| {{}}\)\["{slug}"\] = (.*);\n', script,
                     re.S)
    assert m, "not an explorer data script"
    return json.loads(m.group(1))


def test_script_json_leaves_no_markup_and_round_trips():
    hostile = {"t": "</script><script>alert(1)</script><!-- & \u2028\u2029 >"}
    text = str(script_json(hostile))
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == hostile


def test_gold_spans_merge_consecutive_lines_per_file():
    rel = {"a.py:3": 1, "a.py:4": 1, "a.py:5": 1, "a.py:9": 1, "b/c.py:1": 1, "b/c.py:2": 0}
    assert gold_spans(rel) == [("a.py", 3, 5), ("a.py", 9, 9), ("b/c.py", 1, 1)]


def test_clip_and_elide_say_what_they_left_out():
    assert clip(["a", "b", "c"], 2, 100) == "a\nb\n… (3 lines in all)"
    assert clip(["a", "b"], 5, 100) == "a\nb"
    long = "x" * 50 + "MIDDLE" + "y" * 50
    out = elide(long, 40)
    assert out.startswith("x" * 20) and out.endswith("y" * 20) and "MIDDLE" not in out and "66 characters" in out
    assert elide("short", 40) == "short"


def _board(tmp_path: Path):
    dirs = grid(tmp_path / "runs")[:3]
    records = {}
    for d in dirs:
        r = read_record(d / "record.json")
        r["_dir"] = str(d)
        records[r["config_hash"]] = r
    labels = {h: f"{r['chunker']}/{r['system']}" for h, r in records.items()}
    files = {h: from_folder(RunFiles(Path(r["_dir"])), board_metrics(ReportSettings())) for h, r in records.items()}
    return labels, records, files


def test_explorer_agrees_with_the_run_files(tmp_path):
    labels, records, files = _board(tmp_path)
    ex = explorer(labels, records, files, "ndcg@10", BASELINE.config_hash,
                  code=set_code(records[BASELINE.config_hash], files.values()))
    assert ex is not None and ex.queries == 24 and ex.arms == 3
    data = json.loads(str(ex.payload))
    assert data["arms"][0]["hash"] == BASELINE.config_hash  # the baseline first
    assert data["causes"][:len(CAUSES)] == list(CAUSES)
    q0 = data["q"][0]
    assert q0["t"].startswith(PLANTED)
    span = f"alpha/mod0.py:{GOLD_LINES[0]}-{GOLD_LINES[-1]}"
    assert q0["g"] == [span] and q0["gf"] == ["alpha/mod0.py"]
    assert PLANTED_CODE in data["code"][span]  # read from the corpus folder
    assert data["code_note"] == ""
    for a, arm in enumerate(data["arms"]):
        f = RunFiles(Path(records[arm["hash"]]["_dir"]))  # the run's own files, whole
        for i, q in enumerate(data["q"]):
            value, first, cause, top, hits, right_file = data["r"][a][i]
            ranking = f.rankings[q["id"]]
            rel = {d for d, r in f.qrels[q["id"]].items() if r > 0}
            assert [data["s"][s] for s in top] == ranking[:10]
            assert first == next((n for n, d in enumerate(ranking, 1) if d in rel), 0)
            assert value == round(float(f.values("ndcg@10")[q["id"]]), 4)
            assert (cause == -1) == (0 < first <= 10)  # fakeruns: a gold at rank 12 is a miss at 10
            if cause >= 0:
                assert data["causes"][cause] == "gold ranked below k"
            assert hits == sum(1 << n for n, d in enumerate(ranking[:10]) if d in rel)
            assert right_file & hits == hits  # a hit is in a gold file too
    assert data["s"][data["r"][0][0][3][0]] == PLANTED_CHUNK  # the baseline misses query 0 (fakeruns)


def test_explorer_says_why_code_is_missing(tmp_path):
    labels, records, files = _board(tmp_path)
    for r in records.values():
        r["config"]["corpus"]["sources"] = [str(tmp_path / "gone")]
    code = set_code(records[BASELINE.config_hash], files.values())
    data = json.loads(str(explorer(labels, records, files, "ndcg@10", BASELINE.config_hash, code=code).payload))
    assert data["code"] == {} and "could not be opened here" in data["code_note"] and "gone" in data["code_note"]
    for r in records.values():
        r["corpus_info"]["files"] = 10**9
    code = set_code(records[BASELINE.config_hash], files.values())
    data = json.loads(str(explorer(labels, records, files, "ndcg@10", BASELINE.config_hash, code=code).payload))
    assert data["code"] == {} and "has 1000000000 files" in data["code_note"]


def test_the_html_board_loads_the_explorer_data_from_its_own_script(built):
    html = (built / "leaderboard.html").read_text()
    assert '<details class="explorer" data-board="toy-qs" data-file="explorer/toy-qs.js">' in html
    assert '<script src="explorer/toy-qs.js"></script>' in html and "application/json" not in html
    script = (built / "explorer" / "toy-qs.js").read_text()
    data = _payload(script, "toy-qs")
    assert len(data["q"]) == 24 and len(data["arms"]) == 3
    assert not set("<>&\u2028") & set(script)  # the data cannot close a script element either
