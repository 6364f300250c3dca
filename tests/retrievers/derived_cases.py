"""The embedders derived from the packaged MiniLM as their configs build them (shared by the tests)."""
from __future__ import annotations

from pathlib import Path

# Embedders derived from the packaged MiniLM (ONNX fp32, ONNX int8, model2vec static), built once per
# test session into a tmp cache (export + quantization take seconds, the distillation a few minutes).
DERIVED = ("minilm_onnx", "minilm_onnx_int8", "minilm_static")
# settings of conf/embedder/<name>.yaml that change the built model
DERIVED_SETTINGS = {"minilm_onnx": {"quantize": "none"},
                    "minilm_onnx_int8": {"quantize": "int8", "per_channel": True, "batch_size": 1},
                    "minilm_static": {"pca_dims": 256}}


def make_derived(name: str, models_dir: Path, cache_dir: str | None = None, **extra):
    """A derived embedder as its config makes it, with ``models_dir`` for its build."""
    from retrievers.embedders.onnx_runtime import OnnxEmbedder
    from retrievers.embedders.static import StaticEmbedder

    cls = StaticEmbedder if name == "minilm_static" else OnnxEmbedder
    return cls(models_dir=str(models_dir), cache_dir=cache_dir, **{**DERIVED_SETTINGS[name], **extra})
