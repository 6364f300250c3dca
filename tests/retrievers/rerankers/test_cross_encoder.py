"""The cross-encoder path on a tiny BERT built here (random weights, offline tokenizer)."""
from __future__ import annotations

import threading

import pytest

from retrievers.embedders.model_source import ModelUnavailable
from retrievers.rerankers.cross_encoder import CrossEncoderReranker


def logits(folder, query, texts):
    """The model's raw logits, computed with transformers directly (independent of the reranker)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    with torch.no_grad():
        enc = tok([query] * len(texts), texts, padding=True, truncation=True, return_tensors="pt")
        return model(**enc).logits[:, 0].tolist()


def test_scores_and_reorders_deterministically(tiny_model, pipeline, fused):
    r = CrossEncoderReranker(model=str(tiny_model), depth=5, timeout=30)
    out = r.rerank("parse json config", fused, pipeline)
    again = CrossEncoderReranker(model=str(tiny_model), depth=5, timeout=30).rerank("parse json config", fused, pipeline)
    assert out == again
    raw = logits(tiny_model, "parse json config", [pipeline.texts[c] for c, _ in fused[:5]])
    expected = [fused[i][0] for i in sorted(range(5), key=lambda i: (-raw[i], i))]
    assert [c for c, _ in out[:5]] == expected      # the model's order (any monotone activation)
    assert [c for c, _ in out[:5]] != [c for c, _ in fused[:5]]  # this seed really reorders
    assert out[5:][0][0] == fused[5][0]
    assert r.stats == {"queries": 1, "timeouts": 0, "errors": 0, "fallbacks": 0}


def test_timeout_keeps_the_fused_order_and_counts_it(tiny_model, pipeline, fused, monkeypatch):
    """The fused order comes back while the model is still predicting: the reranker does not wait for
    it past its timeout. Shown by order of events, not by a wall-clock bound a busy machine can break."""
    r = CrossEncoderReranker(model=str(tiny_model), depth=5, timeout=0.05)
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    real = CrossEncoderReranker._predict

    def stuck(self, pairs):
        started.set()
        release.wait(60)
        out = real(self, pairs)
        finished.set()
        return out

    monkeypatch.setattr(CrossEncoderReranker, "_predict", stuck)
    try:
        assert r.rerank("parse json", fused, pipeline) == fused
        assert started.is_set() and not finished.is_set()  # returned while the prediction was blocked
    finally:
        release.set()
    assert finished.wait(60)  # the abandoned prediction ends on its own; the pool stays usable
    assert r.stats["timeouts"] == 1 and r.stats["fallbacks"] == 1


def test_prediction_errors_fall_back(tiny_model, pipeline, fused, monkeypatch):
    r = CrossEncoderReranker(model=str(tiny_model), depth=5)
    monkeypatch.setattr(CrossEncoderReranker, "_predict", lambda self, pairs: 1 / 0)
    assert r.rerank("parse json", fused, pipeline) == fused
    assert r.stats["errors"] == 1 and r.stats["fallbacks"] == 1


def test_unavailable_model_is_a_clear_error(pipeline, fused):
    r = CrossEncoderReranker(model="no-such-org/no-such-cross-encoder", depth=3)
    with pytest.raises(ModelUnavailable, match="no-such-org/no-such-cross-encoder.*local cross-encoder folder"):
        r.rerank("q", fused, pipeline)
