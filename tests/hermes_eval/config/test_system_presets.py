"""The reference systems as presets: each design's numbers reach the pipeline, offline variants run."""
from __future__ import annotations

import pytest

from hermes_eval.config.compose import compose
from hermes_eval.config.identity import system_label
from hermes_eval.api import execute_config

OFFLINE = ["hermes_offline", "repo_search_offline", "sia_code_offline", "workspace_rag_offline"]


def test_hermes_preset_follows_its_design():
    c = compose(["system=hermes"])
    assert c.chunker.name == "hermes" and c.retriever.sparse._target_.endswith("RankBM25Index")
    assert c.retriever.dense.kind == "flat" and c.fusion.k == 60 and c.fusion.dense_weight is None
    assert c.reranker.model == "cross-encoder/ms-marco-MiniLM-L-6-v2" and c.reranker.workers == 2
    assert c.retriever.sparse.tokenizer.split_identifiers is True


def test_repo_search_preset_follows_its_design():
    c = compose(["system=repo_search"])
    assert (c.chunker.size, c.chunker.overlap) == (100, 20)
    assert c.retriever.sparse._target_.endswith("TantivyIndex") and c.retriever.dense._target_.endswith("ExactIndex")
    assert c.fusion.weights["sparse"] == 2 * c.fusion.weights["sparse@q1"] and c.fusion.top_rank_bonus == 0.05
    assert c.expander.n == 2 and c.depths.fused_top_k == 30
    assert [b[1] for b in c.reranker.bands] == [0.75, 0.60, 0.40]


def test_sia_code_preset_follows_its_design():
    c = compose(["system=sia_code"])
    assert c.chunker.name == "cast" and c.retriever.dense.dtype == "f16" and c.retriever.dense.metric == "cos"
    assert c.retriever.sparse.tokenize == "porter unicode61"
    assert (c.fusion.k, c.fusion.dense_weight) == (60, 0.5)
    assert (c.depths.sparse_top_k, c.depths.dense_top_k) == (30, 30)
    assert c.embedder.model == "BAAI/bge-small-en-v1.5"


def test_workspace_preset_follows_its_design():
    c = compose(["system=workspace_rag"])
    d = c.depths
    assert (d.dense_top_k, d.sparse_top_k, d.fused_top_k, d.k) == (40, 40, 30, 8)
    assert c.retriever.dense._target_.endswith("SQLiteVecIndex") and c.reranker.name == "mmr"
    assert c.embedder.model == "google/embeddinggemma-300m"


@pytest.mark.parametrize("name", OFFLINE)
def test_offline_variants_name_every_substitution(name):
    c = compose([f"system={name}"])
    assert system_label(c).endswith("[offline]")
    assert c.system.substitutions and all("->" in s for s in c.system.substitutions)
    assert c.embedder.model == "all-MiniLM-L6-v2"
    assert c.get("expander") is None or c.expander is None


def test_an_offline_preset_runs_end_to_end(make_cfg):
    out = execute_config(make_cfg("system=sia_code_offline"))
    assert out.status == "ok", out.record.get("error")
    assert out.record["system"] == "sia_code [offline]" and out.record["metrics"]["recall@10"]["mean"] > 0
    assert out.record["config"]["system"]["substitutions"]


def test_the_real_model_fails_clearly_offline(make_cfg):
    out = execute_config(make_cfg("system=sia_code"))
    assert out.status == "failed" and "BAAI/bge-small-en-v1.5" in out.record["error"]
