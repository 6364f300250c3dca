"""Every record is re-scored from its own run files by trec_eval's code before it is written."""
from __future__ import annotations

import json

import pytest

from hermes_eval.api import execute_config
from hermes_eval.core.metrics import REGISTRY
from hermes_eval.record.rescore import RescoreMismatch, rescore
from hermes_eval.record.trec import read_qrels, read_run

BM25 = ("retriever=bm25", "chunker=python_ast", "queryset.generator.max_queries=30", "bootstrap=50", "warmup=0")


@pytest.fixture(scope="module")
def run(tmp_path_factory, shared_cache):
    from hermes_eval.config.compose import compose

    tmp = tmp_path_factory.mktemp("rescore-check")
    cfg = compose([f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'datasets'}", f"paths.cache={shared_cache}",
                   "corpus.name=requests_src", "corpus.sources=[pkg:requests]", *BM25])
    out = execute_config(cfg)
    assert out.status == "ok", out.record.get("error")
    return out


def _per_query(run) -> dict[str, dict[str, float]]:
    import pandas as pd

    table = pd.read_parquet(run.run_dir / "per_query.parquet").set_index("qid")
    return {c: table[c].to_dict() for c in table.columns if c in REGISTRY}


def test_the_record_says_what_checked_it(run):
    rescored = run.record["rescored"]
    assert rescored["by"].startswith("pytrec_eval ")
    # 30 queries x (5 ranx metrics + 12 localization metrics) at chunk and file level, and 6 localization
    # metrics over modules (run.module.trec); recall@1 too, through trec_eval's recall.1; hit/acc/acc_all
    # through P_k and num_rel; and 5 file-level bug-localization metrics (file_mrr, file_map, file_map@10,
    # file_map_found, file_map_found@10) through recip_rank, map, map_cut_10, num_rel_ret and P_10
    assert rescored["values"] == 30 * (2 * (5 + 12) + 6 + 5)


def test_agreeing_files_pass_and_count_every_value(run):
    assert rescore(run.run_dir, _per_query(run))["values"] == 30 * (2 * (5 + 12) + 6 + 5)


def test_a_value_that_differs_from_the_files_is_caught_in_one_line(run):
    values = _per_query(run)
    qid = next(q for q, v in values["ndcg@10"].items() if v > 0)
    values["ndcg@10"][qid] -= 0.01
    with pytest.raises(RescoreMismatch) as err:
        rescore(run.run_dir, values)
    msg = str(err.value)
    assert "\n" not in msg and "ndcg@10" in msg and repr(qid) in msg and "trec_eval gives" in msg


@pytest.mark.parametrize("name", ["file_map", "file_map@10", "file_map_found", "file_map_found@10", "file_mrr"])
def test_a_changed_whole_ranking_or_ap_value_is_caught(run, name):
    values = _per_query(run)
    qid = next(q for q, v in values[name].items() if 0 < v < 1)
    values[name][qid] *= 0.9
    with pytest.raises(RescoreMismatch, match=f"{name} of query {qid!r}"):
        rescore(run.run_dir, values)


@pytest.mark.parametrize("name", ["file_acc@1", "acc_all@5", "hit@10", "module_acc@5", "module_hit@10"])
def test_a_flipped_localization_value_is_caught(run, name):
    """hit@k, acc@k and acc_all@k are 1 or 0: trec_eval's P_k and num_rel say which."""
    values = _per_query(run)
    qid = sorted(values[name])[0]
    assert values[name][qid] in (0.0, 1.0)
    values[name][qid] = 1.0 - values[name][qid]
    with pytest.raises(RescoreMismatch, match=f"{name} of query {qid!r}"):
        rescore(run.run_dir, values)


def test_a_reordered_run_file_is_caught(run, tmp_path):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run.run_dir, copy)
    ranked, qrels, values = read_run(copy / "run.trec"), read_qrels(copy / "qrels.trec"), _per_query(run)
    qid = next(q for q, v in values["mrr@10"].items() if v == 1.0 and len(ranked[q]) > 1 and ranked[q][1] not in qrels[q])
    lines = [ln.split() for ln in (copy / "run.trec").read_text().splitlines()]
    first, second = (next(ln for ln in lines if ln[0] == qid and ln[3] == r) for r in ("1", "2"))
    first[3], second[3], first[4], second[4] = "2", "1", second[4], first[4]  # the top two trade places
    (copy / "run.trec").write_text("".join(" ".join(ln) + "\n" for ln in lines))
    # the first metric checked in name order: acc@1 (the gold was first, now second)
    with pytest.raises(RescoreMismatch, match=f"acc@1 of query {qid!r} is 1.000000 in the record but trec_eval gives 0.000000"):
        rescore(copy, values)


def test_a_run_whose_record_would_disagree_fails_and_says_why(make_cfg, monkeypatch):
    from hermes_eval.judge import score

    real = score.per_query

    def off_by_a_bit(qrels, rankings, metrics):
        out = real(qrels, rankings, metrics)
        for q in out.get("recall@10", {}):
            out["recall@10"][q] = min(1.0, out["recall@10"][q] + 0.5)
        return out

    monkeypatch.setattr(score, "per_query", off_by_a_bit)
    out = execute_config(make_cfg(*BM25))
    assert out.status == "failed"
    assert "recall@10" in out.record["error"] and "trec_eval gives" in out.record["error"]
    assert "metrics" not in out.record  # no numbers were recorded for it
    assert json.loads((out.run_dir / "record.json").read_text())["status"] == "failed"


def test_module_level_is_scored_from_run_module_trec(run, tmp_path):
    """The module ranking is its own file: a module list cut short there is caught."""
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run.run_dir, copy)
    values, modules = _per_query(run), read_run(copy / "run.module.trec")
    qid = next(q for q, v in values["module_hit@10"].items() if v == 1.0)
    lines = [ln for ln in (copy / "run.module.trec").read_text().splitlines() if ln.split()[0] != qid]
    (copy / "run.module.trec").write_text("\n".join(lines) + "\n")
    assert modules[qid]
    with pytest.raises(RescoreMismatch, match="module_"):
        rescore(copy, values)
