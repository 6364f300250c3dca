"""MTEB/CoIR import through the `datasets` library from a local folder in MTEB's layout: graded
qrels become graded gold (nDCG uses them), the printed `hermes-eval run` command indexes each
document as one chunk, and a hub name offline fails in one line."""
from __future__ import annotations

import json
import math
import shlex

import pandas as pd
import pytest

from hermes_eval.cli.main import main
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers.mteb import Options, run

DOCS = [{"_id": "c1", "title": "sorting", "text": "def bubble_sort(items):\n    return sorted(items)"},
        {"_id": "c2", "title": "", "text": "def quick_sort(items):\n    return sorted(items, key=id)"},
        {"_id": "c3", "title": "", "text": "def parse_json(text):\n    return json.loads(text)"},
        {"_id": "c4", "title": "", "text": "def parse_json(text):\n    return json.loads(text)"}]  # twin of c3


def _folder(tmp_path):
    root = tmp_path / "task"
    (root / "corpus").mkdir(parents=True)
    pd.DataFrame(DOCS).to_parquet(root / "corpus" / "corpus-00000-of-00001.parquet")  # hub-style parquet
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in [
        {"_id": "q1", "text": "sort a list of items"}, {"_id": "q2", "text": "parse json text"},
        {"_id": "q3", "text": "nothing relevant"}]))
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tc1\t2\nq1\tc2\t1\nq2\tc3\t1\n"
                                             "q3\tc1\t0\n")
    return root


def test_graded_qrels_become_graded_gold_and_twins_are_counted(tmp_path):
    qs = run(Options(source=str(_folder(tmp_path)), dest=tmp_path / "ds", name="t"))
    assert [q.qid for q in qs.queries] == ["q1", "q2"] and qs.manifest["skipped"]["no_relevant_doc"] == 1
    grades = {g.path.split("/")[-1].split("-")[0]: g.grade for g in qs.queries[0].gold}
    assert grades == {"c1.txt": 2, "c2.txt": 1} and qs.manifest["graded"] is True
    assert (tmp_path / "ds" / "corpus" / qs.queries[0].gold[0].path).read_text().startswith("sorting\n\ndef")
    # the less relevant document first: graded nDCG is below 1 (binary judgments would give 1)
    from hermes_eval.judge.relevance import ChunkLookup
    from hermes_eval.judge.score import score
    from retrievers.chunk import Chunk

    low, high = (Chunk(g.path, g.start, g.end, "x") for g in sorted(qs.queries[0].gold, key=lambda g: g.grade))
    s = score(qs.queries[:1], {"q1": [low.id, high.id]}, ChunkLookup([low, high]), 0, 20)
    assert s.per_query["ndcg@10"]["q1"] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_cli_prints_the_run_command_and_it_scores_graded_ndcg(tmp_path, capsys):
    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}",
            f"paths.runs={tmp_path / 'runs'}", "+hygiene.tokenizer=approx"]
    assert main(["datasets", "import", "mteb", str(_folder(tmp_path)), "name=mteb-t", *base]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("hermes-eval run ") and last.endswith(f"paths.datasets={tmp_path / 'ds'} chunker=whole_file")
    assert main(shlex.split(last)[1:] + base[1:] + ["retriever=mteb_bm25", "bootstrap=20", "warmup=0"]) == 0
    [rec] = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/record.json")]
    assert rec["status"] == "ok" and rec["chunks"]["count"] == 4  # one chunk per document
    assert rec["hygiene"]["duplicate_docs"] == 1 and rec["hygiene"]["twin_gold"] == 1  # c4 copies c3
    per = pd.read_parquet(next((tmp_path / "runs").glob("*/per_query.parquet"))).set_index("qid")
    trec = [l.split() for l in next((tmp_path / "runs").glob("*/run.trec")).read_text().splitlines()]
    grade = {"c1": 2, "c2": 1}
    gains = [grade.get(doc.split("/")[-1].split(".")[0].split("-")[0], 0) for q, _, doc, *_ in trec if q == "q1"]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains[:10]))
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert per.loc["q1", "ndcg@10"] == pytest.approx(dcg / ideal)


def test_hub_name_without_a_hub_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(UserError, match="no hub here: pass a local folder"):
        run(Options(source="mteb/no-such-task-here", dest=tmp_path / "ds", name="t"))


@pytest.mark.parametrize("rel", ["qrels/test.tsv", "default/test-00000-of-00001.parquet", "default/test/0000.parquet"])
def test_qrels_of_a_split_are_found_in_each_published_layout(tmp_path, rel):
    from hermes_eval.querysets.importers.mteb import _files

    for split in ("test", "train"):
        (tmp_path / rel.replace("test", split)).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel.replace("test", split)).write_text("x")
    assert _files(tmp_path, "qrels", "test") == [tmp_path / rel]
