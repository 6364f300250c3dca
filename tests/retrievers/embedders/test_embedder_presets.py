"""Embedder presets (bge, e5, nomic): the right prefixes reach the model, and offline, where their
weights cannot be fetched, a run fails with one clear ModelUnavailable line."""
from __future__ import annotations

import pytest

from hermes_eval.config.parts import instantiate_part
from retrievers.embedders.model_source import ModelUnavailable

PRESETS = {"bge": ("BAAI/bge-small-en-v1.5", "Represent this sentence for searching relevant passages: ", ""),
           "e5": ("intfloat/e5-small-v2", "query: ", "passage: "),
           "nomic": ("nomic-ai/nomic-embed-text-v1.5", "search_query: ", "search_document: ")}


@pytest.fixture
def no_local_models(tmp_path, monkeypatch):
    """sentence-transformers looks for hub models in an empty folder (it passes its cache folder to
    every hub and transformers lookup): the missing-model path is taken on every machine, whether or
    not its own hub cache holds these models."""
    empty = tmp_path / "empty-model-cache"
    empty.mkdir()
    monkeypatch.setenv("SENTENCE_TRANSFORMERS_HOME", str(empty))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    yield empty
    assert not any(empty.iterdir())  # looked there, fetched nothing


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_prefixes(preset, make_cfg):
    cfg = make_cfg(f"embedder={preset}", persistent_embeddings=False)  # the preset's own cache_dir
    model, qp, dp = PRESETS[preset]
    emb = instantiate_part(cfg.embedder)
    assert (emb.model, emb.query_prefix, emb.document_prefix) == (model, qp, dp)
    assert emb.normalize and emb.cache_dir == cfg.paths.cache


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_unavailable_model_fails_clearly(preset, make_cfg, no_local_models):
    model = PRESETS[preset][0]
    emb = instantiate_part(make_cfg(f"embedder={preset}").embedder)
    with pytest.raises(ModelUnavailable, match="cannot be loaded") as err:
        emb.embed_queries(["x"])
    assert model in str(err.value) and "all-MiniLM-L6-v2" in str(err.value)


def test_a_run_with_an_unavailable_model_is_a_failed_record(make_cfg, no_local_models):
    from hermes_eval.api import execute_config

    out = execute_config(make_cfg("embedder=e5", "retriever=faiss_flat", "chunker=lines"))
    assert out.status == "failed"
    assert out.record["error"].startswith("ModelUnavailable: embedder model 'intfloat/e5-small-v2'")
    assert (out.run_dir / "record.json").exists()
