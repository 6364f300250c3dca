"""BEIR import/export: header detection, foreign corpora as files, round trip of our own export."""
from __future__ import annotations

import json

import pytest

from hermes_eval.corpus import load_corpus
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers.beir import Options, export_beir, read_qrels, run
from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from retrievers.chunkers.lines import LineChunker


def _write_beir(folder, qrels: str, corpus=None, queries=None):
    (folder / "qrels").mkdir(parents=True)
    docs = corpus or [{"_id": "d1", "title": "Sorting", "text": "def bubble_sort(xs):\n    return sorted(xs)"},
                      {"_id": "d/2", "title": "", "text": "def binary_search(xs, x):\n    return xs.index(x)"},
                      {"_id": 3, "text": "README: nothing to see"}]
    qs = queries or [{"_id": "q1", "text": "sort a list"}, {"_id": "q2", "text": "find an element"},
                     {"_id": "q3", "text": "no judgment at all"}]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in qs))
    (folder / "qrels" / "test.tsv").write_text(qrels)
    return folder


@pytest.mark.parametrize("header", [True, False])
def test_qrels_header_is_detected_and_first_judgment_kept(tmp_path, header):
    path = tmp_path / "q.tsv"
    path.write_text(("query-id\tcorpus-id\tscore\n" if header else "") + "q1\td1\t1\nq2\td/2\t2\n")
    judgments, had = read_qrels(path)
    assert had is header
    assert judgments == [("q1", "d1", 1), ("q2", "d/2", 2)]


def test_qrels_trec_columns_and_bad_score(tmp_path):
    path = tmp_path / "q.tsv"
    path.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    assert read_qrels(path) == ([("q1", "d1", 1), ("q1", "d2", 0)], False)
    path.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\tyes\n")
    with pytest.raises(UserError, match=r"q.tsv line 3: field 'score'"):
        read_qrels(path)


def test_foreign_corpus_becomes_one_file_per_document(tmp_path):
    src = _write_beir(tmp_path / "beir", "q1\td1\t1\nq2\td/2\t1\nq2\tghost\t1\nq1\t3\t0\n")
    dest = tmp_path / "out"
    qs = run(Options(folder=src, dest=dest, name="foreign"))
    assert qs.manifest["doc_mode"] == "documents" and qs.manifest["qrels_header"] is False
    assert [q.qid for q in qs.queries] == ["q1", "q2"]  # q1's judgment is the first line: kept
    assert qs.manifest["skipped"] == {"no_relevant_doc": 1, "qrels_not_relevant": 1, "qrels_unknown_doc": 1,
                                      "qrels_unknown_query": 0}
    gold = qs.queries[0].gold[0]
    assert gold.path == "docs/d1.txt" and (gold.start, gold.end) == (1, 4)
    assert (dest / "corpus" / gold.path).read_text() == "Sorting\n\ndef bubble_sort(xs):\n    return sorted(xs)\n"
    assert qs.queries[1].gold[0].path.startswith("docs/d_2-")  # unsafe id, hashed suffix
    corpus = load_corpus(qs.manifest["corpus_sources"], name="x")
    assert corpus.fingerprint == qs.manifest["corpus_fingerprint"]


def test_export_then_import_keeps_spans(shop_corpus, tmp_path):
    qs = RepoEvalQueries(level="line", context_lines=3).generate(shop_corpus, "t")
    out = tmp_path / "exported"
    counts = export_beir(qs, shop_corpus, LineChunker(size=10, overlap=0), out)
    assert counts["queries"] == len(qs) and counts["queries_with_exclude"] == len(qs)
    assert (out / "qrels" / "test.tsv").read_text().startswith("query-id\tcorpus-id\tscore\n")
    first_doc = json.loads((out / "corpus.jsonl").read_text().splitlines()[0])
    assert first_doc["_id"] == "shop/__init__.py:1-2"
    back = run(Options(folder=out, dest=tmp_path / "back", name="back"))
    assert back.manifest["doc_mode"] == "spans" and back.manifest["qrels_header"] is True
    assert {(q.qid, q.gold, q.exclude) for q in back.queries} == {(q.qid, q.gold, q.exclude) for q in qs.queries}
    rebuilt = (tmp_path / "back" / "corpus" / "shop" / "cart.py").read_text().split("\n")
    assert rebuilt[22] == "        value = pr.total_price(subtotal, discount)"


def test_malformed_jsonl_names_file_line_and_field(tmp_path):
    src = _write_beir(tmp_path / "beir", "q1\td1\t1\n")
    (src / "corpus.jsonl").write_text('{"_id": "d1", "text": "a"}\n{"_id": "d2", "text": \n')
    with pytest.raises(UserError, match=r"corpus.jsonl line 2: invalid JSON"):
        run(Options(folder=src, dest=tmp_path / "o", name="x"))
    (src / "corpus.jsonl").write_text('{"_id": "d1", "text": "a"}\n{"title": "no id"}\n')
    with pytest.raises(UserError, match=r"corpus.jsonl line 2: missing field '_id'"):
        run(Options(folder=src, dest=tmp_path / "o", name="x"))
    (src / "corpus.jsonl").write_text('{"_id": "d1", "text": "a"}\n')
    (src / "queries.jsonl").write_text('{"_id": "q1", "text": 7}\n')
    with pytest.raises(UserError, match=r"queries.jsonl line 1: field 'text' must be str"):
        run(Options(folder=src, dest=tmp_path / "o", name="x"))
