"""The derived embedders against the sentence-transformers path on real code: fp32 ONNX agrees to
cosine >= 0.999 on every text; int8 and the static model are measured and held to floors that catch
a broken build (the numbers are printed, see -s)."""
from __future__ import annotations

import numpy as np
import pytest

from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder


@pytest.fixture(scope="module")
def minilm_vectors(code_texts) -> np.ndarray:
    return SentenceTransformerEmbedder(cache_dir=None).embed_documents(code_texts)


def _min_cos(a: np.ndarray, b: np.ndarray) -> float:
    return float((a * b).sum(axis=1).min())


def test_onnx_fp32_matches_sentence_transformers(derived_embedders, code_texts, minilm_vectors):
    onnx = derived_embedders["minilm_onnx"].embed_documents(code_texts)
    assert onnx.shape == minilm_vectors.shape and onnx.dtype == np.float32
    assert _min_cos(onnx, minilm_vectors) >= 0.999
    queries = ["render a template with a context", "escape html markup", "undefined variable error"]
    q_st = SentenceTransformerEmbedder(cache_dir=None).embed_queries(queries)
    assert _min_cos(derived_embedders["minilm_onnx"].embed_queries(queries), q_st) >= 0.999


def test_onnx_fp32_truncates_like_sentence_transformers(derived_embedders):
    long_text = " ".join(f"token_{i} = compute(value_{i})" for i in range(400))  # far beyond 256 tokens
    st = SentenceTransformerEmbedder(cache_dir=None).embed_documents([long_text, long_text[:200]])
    onnx = derived_embedders["minilm_onnx"].embed_documents([long_text, long_text[:200]])
    assert _min_cos(onnx, st) >= 0.999


def test_int8_agreement_is_recorded(derived_embedders, code_texts, minilm_vectors):
    int8 = derived_embedders["minilm_onnx_int8"].embed_documents(code_texts)
    cos = (int8 * minilm_vectors).sum(axis=1)
    print(f"\nint8 (per-channel) vs sentence-transformers on {len(code_texts)} jinja2 windows: "
          f"min cosine {cos.min():.4f}, mean {cos.mean():.4f}")
    assert cos.min() >= 0.95 and cos.mean() >= 0.98


def _pairwise(v: np.ndarray) -> np.ndarray:
    sims = v @ v.T
    return sims[np.triu_indices(len(v), k=1)]


def test_static_agreement_is_recorded(derived_embedders, code_texts, minilm_vectors):
    """The static model lives in its own 256-d space: agreement is the correlation of the pairwise
    similarities it gives the same texts with MiniLM's."""
    static = derived_embedders["minilm_static"].embed_documents(code_texts)
    assert static.shape == (len(code_texts), 256)
    r = float(np.corrcoef(_pairwise(static), _pairwise(minilm_vectors))[0, 1])
    print(f"\nstatic vs MiniLM pairwise-similarity correlation on {len(code_texts)} jinja2 windows: {r:.3f}")
    assert r >= 0.5


def test_onnx_clips_long_documents_to_the_same_input_ids_and_vectors(derived_embedders, models_dir):
    """The ONNX path cuts documents as the sentence-transformers one does (``clip.head_for``),
    through its own truncating ``tokenizers.Tokenizer``: the same ids, so the same vectors as uncut."""
    from pathlib import Path

    import click
    import jinja2
    from derived_cases import make_embedder

    from retrievers.embedders.clip import tokenizers_clipper

    texts = [(Path(click.__file__).parent / "core.py").read_text(),
             (Path(jinja2.__file__).parent / "compiler.py").read_text(), "def add(a, b):\n    return a + b\n"]
    onnx = derived_embedders["minilm_onnx"]
    cut = tokenizers_clipper(onnx.tokenizer, onnx.max_seq_length)
    assert cut is not None
    heads = [cut(t) for t in texts]
    assert [len(h) < len(t) for h, t in zip(heads, texts)] == [True, True, False]
    assert [e.ids for e in onnx.tokenizer.encode_batch(heads)] == [e.ids for e in onnx.tokenizer.encode_batch(texts)]
    whole = make_embedder("minilm_onnx", models_dir, clip=False)
    assert np.allclose(onnx.embed_documents(texts), whole.embed_documents(texts), atol=1e-5)
