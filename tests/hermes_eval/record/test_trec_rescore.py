"""The written TREC files re-score to record.json in ir_measures and pytrec_eval, at chunk, file
and line level, on a run whose set has unanswerable queries and a query with no results."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import ir_measures
import pandas as pd
import pytest
import pytrec_eval
import requests
from ir_measures import MRR, R, SetR, nDCG

from hermes_eval.api import execute_config
from hermes_eval.judge.relevance import NO_RESULTS, UNANSWERABLE
from hermes_eval.record.trec import read_run

API = Path(requests.__file__).parent / "api.py"


def _functions() -> list[ast.FunctionDef]:
    return [n for n in ast.parse(API.read_text()).body if isinstance(n, ast.FunctionDef)]


def _queries() -> list[dict]:
    out = []
    for fn in _functions():
        gold = [{"path": "requests/api.py", "start": fn.lineno, "end": fn.end_lineno}]
        doc = ast.get_docstring(fn).split("\n")[0]
        out.append({"qid": f"doc-{fn.name}", "query": f"{doc} {fn.name}", "gold": gold})
        # the hole sits inside the gold function: a whole-function chunk holds both
        out.append({"qid": f"hole-{fn.name}", "query": f"{fn.name} request url", "gold": gold,
                    "exclude": [{"path": "requests/api.py", "start": fn.lineno + 1, "end": fn.lineno + 1}]})
    out.append({"qid": "no-terms", "query": "zzqxv wqyqz kkvvj",
                "gold": [{"path": "requests/api.py", "start": 1, "end": 3}]})
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory, shared_cache):
    from hermes_eval.config.compose import compose

    tmp = tmp_path_factory.mktemp("rescore")
    folder = tmp / "datasets" / "api-holes"
    folder.mkdir(parents=True)
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in _queries()))
    cfg = compose([f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'datasets'}", f"paths.cache={shared_cache}",
                   "corpus.name=requests_src", "corpus.sources=[pkg:requests]", "queryset=imported",
                   "queryset.name=api-holes", "retriever=bm25", "chunker=python_ast", "bootstrap=50", "warmup=0"])
    out = execute_config(cfg)
    assert out.status == "ok", out.record.get("error")
    return out


def test_unanswerable_queries_are_counted_named_and_scored_zero(run):
    h = run.record["hygiene"]
    holes = sorted(f"hole-{fn.name}" for fn in _functions())
    assert h["unanswerable"] == len(holes) and h["named"]["unanswerable"] == holes[:20]
    assert any(w.startswith("UNANSWERABLE") for w in run.record["warnings"])
    assert [e["source"] for e in run.record["cache"] if e["kind"] == "leaks"] == ["computed"]
    per_query = pd.read_parquet(run.run_dir / "per_query.parquet").set_index("qid")
    assert (per_query.loc[holes, "recall@10"] == 0).all()
    assert all("unanswerable" in per_query.loc[q, "hygiene_flags"] for q in holes)
    qrels = ir_measures.read_trec_qrels(str(run.run_dir / "qrels.trec"))
    assert {q.query_id for q in qrels if q.doc_id == UNANSWERABLE} == set(holes)


def test_a_query_without_results_keeps_one_placeholder_line(run):
    lines = [l.split() for l in (run.run_dir / "run.trec").read_text().splitlines()]
    assert [l[2] for l in lines if l[0] == "no-terms"] == [NO_RESULTS]
    assert read_run(run.run_dir / "run.trec")["no-terms"] == []


def _chunk_lines(doc: str) -> list[str]:
    """The lines of a chunk id ``path:start-end``, derived independently of the project's code."""
    path, rng = doc.rsplit(":", 1)
    start, end = (int(x) for x in rng.split("-"))
    return [f"{path}:{n}" for n in range(start, end + 1)]


def _ranked(run_dir: Path) -> dict[str, list[str]]:
    by_q: dict[str, list[tuple[int, str]]] = {}
    for line in (run_dir / "run.trec").read_text().splitlines():
        qid, _, doc, rank, *_ = line.split()
        by_q.setdefault(qid, []).append((int(rank), doc))
    return {q: [d for _, d in sorted(v)] for q, v in by_q.items()}


def _level_run(run_dir: Path, level: str, k: int | None = None) -> dict[str, dict[str, float]]:
    """The run at a level: chunks as written; files in order of their first chunk; the lines of
    the top-k chunks (for set recall), every query kept."""
    out: dict[str, dict[str, float]] = {}
    for qid, docs in _ranked(run_dir).items():
        if level == "chunk":
            names = docs
        elif level == "file":
            names = list(dict.fromkeys(d.rsplit(":", 1)[0] for d in docs))
        else:
            names = list(dict.fromkeys(l for d in docs[:k] if d != NO_RESULTS for l in _chunk_lines(d))) or [NO_RESULTS]
        out[qid] = {n: float(len(names) - i) for i, n in enumerate(names)}
    return out


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        qid, _, doc, rel = line.split()
        out.setdefault(qid, {})[doc] = int(rel)
    return out


CASES = [("chunk", "qrels.trec", None, {"recall@10": ("recall.10", R @ 10), "ndcg@10": ("ndcg_cut.10", nDCG @ 10),
                                          "mrr@10": (None, MRR @ 10), "recall@5": ("recall.5", R @ 5)}),
         ("file", "qrels.file.trec", None, {"file_recall@10": ("recall.10", R @ 10), "file_ndcg@10": ("ndcg_cut.10", nDCG @ 10),
                                             "file_mrr@10": (None, MRR @ 10)}),
         ("line", "qrels.line.trec", 5, {"line_coverage@5": ("set_recall", SetR)}),
         ("line", "qrels.line.trec", 10, {"line_coverage@10": ("set_recall", SetR)})]


@pytest.mark.parametrize("level,qrels_file,k,metrics", CASES, ids=[f"{c[0]}{c[2] or ''}" for c in CASES])
def test_external_rescore_equals_the_record(run, level, qrels_file, k, metrics):
    qrels, docs = _qrels(run.run_dir / qrels_file), _level_run(run.run_dir, level, k)
    assert set(qrels) == set(docs) == {q["qid"] for q in _queries()}  # nobody drops a query
    ir_qrels = [ir_measures.Qrel(q, d, r) for q, rel in qrels.items() for d, r in rel.items()]
    ir_run = [ir_measures.ScoredDoc(q, d, s) for q, ds in docs.items() for d, s in ds.items()]
    for name, (trec_name, measure) in metrics.items():
        want = run.record["metrics"][name]["mean"]
        assert ir_measures.calc_aggregate([measure], ir_qrels, ir_run)[measure] == pytest.approx(want, abs=1e-9), name
        if trec_name:  # pytrec_eval scores only queries present in the run: all of them are
            per_q = pytrec_eval.RelevanceEvaluator(qrels, {trec_name.split(".")[0]}).evaluate(docs)
            vals = [v[trec_name.replace(".", "_")] for v in per_q.values()]
            assert len(vals) == len(qrels) and sum(vals) / len(vals) == pytest.approx(want, abs=1e-9), name
