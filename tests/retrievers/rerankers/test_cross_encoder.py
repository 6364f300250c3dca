"""The cross-encoder path on a tiny BERT built here (random weights, offline tokenizer)."""
from __future__ import annotations

import time

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
    r = CrossEncoderReranker(model=str(tiny_model), depth=5, timeout=0.05)
    real = CrossEncoderReranker._predict
    monkeypatch.setattr(CrossEncoderReranker, "_predict", lambda self, pairs: (time.sleep(0.5), real(self, pairs))[1])
    t = time.perf_counter()
    assert r.rerank("parse json", fused, pipeline) == fused
    assert time.perf_counter() - t < 0.4
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
