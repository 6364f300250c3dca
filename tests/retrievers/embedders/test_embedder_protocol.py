"""What every embedder owes the pipeline, for every conf/embedder preset this machine runs (its model is
a local folder: the packaged MiniLM and each embedder derived from it): float32 unit rows, queries and
documents embedded alike, empty input, the document cache (second call read from it, keyed by an identity
no other embedder shares), stats for the run record."""
from __future__ import annotations

import numpy as np
import pytest

from hydra.utils import get_class

from retrievers.embedders.base import Embedder
from retrievers.kinds import missing_members

from derived_cases import DERIVED, LOCAL, PRESETS, make_embedder, preset

pytestmark = pytest.mark.long  # minutes of work: scheduled first (tests/conftest.py)

TEXTS = ["def parse(url):\n    return urlsplit(url)", "class Session:\n    pass", "import json",
         "raise ValueError('bad header')", "for key in headers: print(key)"]
NAMES = LOCAL


def test_every_embedder_class_a_preset_names_is_in_the_suite():
    """A class whose presets all need a model hub would escape this suite: each has a local preset."""
    assert "minilm" in NAMES and DERIVED
    classes = {name: get_class(preset(name)["_target_"]) for name in PRESETS}
    assert {classes[n] for n in NAMES} == set(classes.values())


@pytest.fixture
def embedder_for(derived_embedders, models_dir, tmp_path):
    """A fresh embedder of preset ``name`` with its own document cache (derived ones reuse the session build)."""
    def make(name: str):
        if name in DERIVED:
            derived_embedders[name]  # noqa: B018 - built once for the session
        emb = make_embedder(name, models_dir, cache_dir=str(tmp_path))
        assert missing_members(emb, Embedder) == []
        return emb
    return make


@pytest.mark.parametrize("name", NAMES)
def test_vectors_are_normalized_float32_rows(name, embedder_for):
    emb = embedder_for(name)
    docs, queries = emb.embed_documents(TEXTS), emb.embed_queries(TEXTS[:2])
    assert docs.dtype == np.float32 and docs.shape == (len(TEXTS), emb.dim)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    # a text embeds the same as a query and as a document (no prefixes here)
    assert np.allclose(queries, docs[:2], atol=1e-5)
    assert emb.embed_documents([]).shape == (0, emb.dim) and emb.embed_queries([]).shape == (0, emb.dim)


@pytest.mark.parametrize("name", NAMES)
def test_second_call_reads_the_cache(name, embedder_for):
    first = embedder_for(name)
    want = first.embed_documents(TEXTS)
    assert first.stats["computed"] == len(TEXTS) and first.stats["encode_seconds"] > 0
    assert first.stats["model_bytes"] and first.stats["model_bytes"] > 1_000_000
    again = embedder_for(name)
    got = again.embed_documents(TEXTS)
    assert again.stats["computed"] == 0 and again.stats["cached"] == len(TEXTS)
    # bit-equal by construction: the cache (tmp_path, written above by this process) returns the bytes
    # it stored. Vectors computed afresh on another CPU would differ in their low bits (about 2e-7).
    assert np.array_equal(got, want)


def test_identities_differ_between_embedders(embedder_for):
    ids = {name: embedder_for(name).identity for name in NAMES}
    assert len(set(ids.values())) == len(NAMES), ids


@pytest.mark.parametrize("name", NAMES)
def test_ranking_finds_the_matching_code(name, embedder_for):
    """A real retrieval sanity check: each text is its own nearest neighbour among the others."""
    emb = embedder_for(name)
    docs = emb.embed_documents(TEXTS)
    q = emb.embed_queries(TEXTS)
    assert list(np.argmax(q @ docs.T, axis=1)) == list(range(len(TEXTS)))
