"""A run's record is built once, typed (stages/run_record.py), after a mode picked in one place searched
(stages/run_modes.py): a real small run's record.json has exactly the fields and values it had before."""
from __future__ import annotations

import json
from dataclasses import fields
from types import SimpleNamespace

import pandas as pd
import pytest

from hermes_eval.api import execute_config
from hermes_eval.config.settings import settings_from
from hermes_eval.core.version import __version__
from hermes_eval.record.checksums import file_sums
from hermes_eval.stages.run_modes import SearchInput, pick_mode
from hermes_eval.stages.run_record import RunRecord

IDENTITY = ["schema", "config_hash", "config", "system", "chunker", "queryset", "corpus", "seed", "parts", "versions",
            "machine", "git_commit", "hermes_eval_version", "experiment"]
BODY = ["warnings", "corpus_info", "indexed_fingerprint", "queryset_info", "hygiene", "chunks", "legs", "metrics",
        "rescored", "files", "latency_ms", "warmup", "strata", "fusion_tuning", "index", "snapshots",
        "snapshot_work", "shards", "peak_rss_mb", "peak_rss_scope", "cache", "embeddings", "reranker", "expander",
        "service"]
# the record in the order it is built: identity, status, error, the body, then what the chain adds
ORDER = IDENTITY + ["status", "error"] + BODY + ["wall_seconds", "finished_at"]


@pytest.fixture
def bm25_run(make_cfg):
    cfg = make_cfg("retriever=bm25", "chunker=lines")
    return settings_from(cfg), execute_config(cfg)


def test_a_real_runs_record_has_the_fields_and_values_it_had(bm25_run):
    s, out = bm25_run
    assert out.status == "ok", out.record.get("error")
    assert list(out.record) == ORDER
    rec = json.loads((out.run_dir / "record.json").read_text())
    assert sorted(rec) == sorted(ORDER)
    assert {k: rec[k] for k in ("schema", "config_hash", "system", "chunker", "queryset", "corpus", "seed",
                                "hermes_eval_version", "experiment", "status", "error", "warnings")} == {
        "schema": 1, "config_hash": s.config_hash, "system": "rank_bm25", "chunker": "lines",
        "queryset": "requests_src-docstring", "corpus": "requests_src", "seed": 0, "hermes_eval_version": __version__,
        "experiment": None, "status": "ok", "error": None, "warnings": []}
    # what the search mode (one set of indexes, no tuning) and its parts leave
    assert rec["legs"] == ["sparse"] and rec["fusion_tuning"] == {"enabled": False, "evaluated_on": "all queries"}
    assert {k: rec[k] for k in ("snapshots", "snapshot_work", "shards", "embeddings", "reranker", "expander",
                                "service")} == dict.fromkeys(("snapshots", "snapshot_work", "shards", "embeddings",
                                                              "reranker", "expander", "service"))
    assert rec["queryset_info"]["n"] == 40 and rec["queryset_info"]["name"] == "requests_src-docstring"
    assert rec["latency_ms"]["total"]["n"] == 40 and rec["warmup"] == 2
    assert set(rec["index"]) == {"build_seconds", "build_seconds_total", "bytes", "sources"}
    assert set(rec["index"]["bytes"]) == {"sparse"} and rec["index"]["bytes"]["sparse"] > 0
    assert {k: rec["chunks"][k] for k in ("count", "fallback", "tokens_total", "lines_p50")} == {
        "count": 318, "fallback": {}, "tokens_total": 71006, "lines_p50": 30.0}
    assert rec["files"] == file_sums(out.run_dir)
    # the parts' identities a later resume compares (stages/reuse.py): the chunker and the leg that ran, and fusion
    assert set(rec["parts"]) == {"chunker", "sparse", "fusion"}
    assert rec["parts"]["chunker"]["parts"] == ["retrievers.chunkers.lines.LineChunker@1"]
    assert rec["parts"]["sparse"]["preset"] == "rank_bm25" and len(rec["parts"]["sparse"]["key"]) == 16
    # 1,800: 40 queries x 45 measures (the five file-level bug-localization ones added 200)
    assert rec["rescored"]["values"] == 1800 and rec["rescored"]["by"].startswith("pytrec_eval")
    assert rec["peak_rss_scope"] == "job" and rec["peak_rss_mb"] > 0
    assert all(set(e) >= {"kind", "source", "key"} for e in rec["cache"])
    assert rec["hygiene"]["queries"] == 40 and rec["hygiene"]["self_retrieval"] == 0
    # the numbers this arm has always had, and the per-query file's means
    means = {m: rec["metrics"][m]["mean"] for m in ("ndcg@10", "recall@10", "mrr@10")}
    assert means == {"ndcg@10": 0.4645832164, "recall@10": 0.6072916667, "mrr@10": 0.4740178571}
    per_query = pd.read_parquet(out.run_dir / "per_query.parquet")
    assert {m: round(float(per_query[m].mean()), 10) for m in means} == means
    # text columns as pandas wrote them before pyarrow wrote the file (records of both ages are read together)
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {f.name: f.type for f in pq.read_schema(out.run_dir / "per_query.parquet")}
    assert types["qid"] == types["top10"] == pa.large_string() and types["ndcg@10"] == pa.float64()
    assert rec["strata"]["language"]["python"]["queries"] == 40


def test_the_typed_record_writes_its_fields_in_order_and_holds_values_as_given():
    assert [f.name for f in fields(RunRecord)] == ["identity"] + BODY
    events: list[dict] = []
    body = {name: f"value of {name}" for name in BODY} | {"cache": events}
    rec = RunRecord(identity={k: k.upper() for k in IDENTITY}, **body).as_dict()
    assert list(rec) == IDENTITY + ["status", "error"] + BODY
    assert rec["status"] == "ok" and rec["error"] is None and rec["config_hash"] == "CONFIG_HASH"
    assert rec["legs"] == "value of legs" and rec["cache"] is events


@pytest.mark.parametrize("shard_parts,reuse,mode", [([object()], None, "sharded"), ([object()], {"s": 1}, "sharded"),
                                                    (None, {"s": 1}, "snapshots"), (None, None, "single")])
def test_one_place_picks_the_run_mode(shard_parts, reuse, mode):
    prepared = SimpleNamespace(reuse=reuse)
    assert pick_mode(SearchInput(None, prepared, (), None, 0, shard_parts)).name == mode
