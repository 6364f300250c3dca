"""A reranker configured by name runs in the real runner: stage timing, depth, record, label."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from hermes_eval.api import execute_config

EMB_CACHE = Path(__file__).resolve().parents[3] / ".cache" / "test-embeddings"
BASE = ("retriever=bm25", "queryset.generator.max_queries=8", "bootstrap=50", f"embedder.cache_dir={EMB_CACHE}")


def test_dense_rescore_over_bm25_in_a_run(make_cfg):
    plain = execute_config(make_cfg(*BASE))
    reranked = execute_config(make_cfg(*BASE, "reranker=dense_rescore", "reranker.depth=5"))
    assert plain.status == "ok" and reranked.status == "ok", reranked.record.get("error")
    assert plain.record["reranker"] is None and "rerank" not in plain.record["latency_ms"]
    assert reranked.record["reranker"]["name"] == "dense_rescore"
    assert reranked.record["latency_ms"]["rerank"]["n"] == 8
    assert reranked.record["system"] == "rank_bm25 +rerank=dense_rescore@5"
    assert reranked.record["config_hash"] != plain.record["config_hash"]
    a, b = (pd.read_parquet(r.run_dir / "per_query.parquet") for r in (plain, reranked))
    moved = 0
    for x, y in zip(a["top10"], b["top10"]):
        x, y = json.loads(x), json.loads(y)
        assert sorted(x[:5]) == sorted(y[:5]) and x[5:] == y[5:]  # only the top 5 move
        moved += x[:5] != y[:5]
    assert moved > 0


def test_null_reranker_keeps_the_config_hash(make_cfg):
    from omegaconf import OmegaConf

    from hermes_eval.config.identity import config_hash
    from hermes_eval.config.parts import plain

    cfg = make_cfg()
    data = plain(cfg)
    assert data["reranker"] is None and data["expander"] is None
    del data["reranker"], data["expander"]
    assert config_hash(cfg) == config_hash(OmegaConf.create(data))
    assert config_hash(make_cfg("reranker=mmr", "+rerank_depth=10")) == config_hash(make_cfg("reranker=mmr",
                                                                                            "reranker.depth=10"))
