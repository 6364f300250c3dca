"""Indexes and chunks come from the content-addressed cache; damaged entries are rebuilt."""
from __future__ import annotations

import json
import pickle

from hermes_eval.cache.content import Cache
from hermes_eval.api import execute_config


def _metrics(out) -> str:
    return json.dumps(out.record["metrics"], sort_keys=True)


def test_second_arm_loads_indexes_and_scores_the_same(make_cfg, tmp_path, embedding_cache):
    cache = tmp_path / "own-cache"  # own chunk and index cache; embeddings from the shared vector cache
    emb = f"embedder.cache_dir={embedding_cache}"
    first = execute_config(make_cfg("fusion.dense_weight=0.3", f"paths.cache={cache}", emb))
    assert first.record["index"]["sources"] == {"sparse": "computed", "dense": "computed"}
    second = execute_config(make_cfg("fusion.dense_weight=0.7", f"paths.cache={cache}", emb))
    assert second.record["index"]["sources"] == {"sparse": "cache", "dense": "cache"}
    assert second.record["index"]["bytes"] == first.record["index"]["bytes"]
    fresh = execute_config(make_cfg("fusion.dense_weight=0.7", "index_cache=false", "rerun=true",
                             f"paths.runs={tmp_path / 'fresh'}"))
    assert _metrics(fresh) == _metrics(second)
    kinds = {(e["kind"], e["source"]) for e in second.record["cache"]}
    assert ("chunks", "cache") in kinds and ("index", "cache") in kinds


def test_a_damaged_index_entry_is_rebuilt_not_loaded(make_cfg, tmp_path):
    cache = tmp_path / "own-cache"
    good = execute_config(make_cfg("fusion.dense_weight=0.0", f"paths.cache={cache}"))
    entry = next((cache / "indexes").glob("*/index"))
    victim = max((p for p in entry.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    again = execute_config(make_cfg("fusion.dense_weight=0.0", f"paths.cache={cache}", "rerun=true"))
    assert again.record["index"]["sources"] == {"sparse": "computed"}
    assert _metrics(again) == _metrics(good)


def test_a_corrupted_cache_pickle_is_recomputed(tmp_path):
    cache = Cache(tmp_path)
    assert cache.get_or_compute("chunks", "k", lambda: [1, 2, 3]) == [1, 2, 3]
    path = tmp_path / "chunks" / "k.pkl"
    path.write_bytes(pickle.dumps([9, 9, 9]))  # content changed, checksum no longer matches
    assert cache.get_or_compute("chunks", "k", lambda: [1, 2, 3]) == [1, 2, 3]
    path.write_bytes(path.read_bytes()[:5])  # truncated
    calls = []
    assert cache.get_or_compute("chunks", "k", lambda: calls.append(1) or [1, 2, 3]) == [1, 2, 3]
    assert calls == [1]
    assert [e["source"] for e in cache.events] == ["computed", "computed", "computed"]
