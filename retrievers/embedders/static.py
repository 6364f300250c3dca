"""A static embedder (model2vec) distilled locally from MiniLM: a token lookup table, mean-pooled.

Built on first use by :mod:`retrievers.embedders.static_distill` (cached by content in ``models_dir``).
Texts are truncated at ``max_seq_length`` tokens like the transformer paths, and vectors are
L2-normalized.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from retrievers.embedders.builds import BuildSpec, Built, require
from retrievers.embedders.base import CachedEmbedder
from retrievers.embedders.static_distill import PIP, build_static, static_settings, static_spec
from retrievers.identity.declare import declare
from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions

DEFAULT_MODELS_DIR = Path.home() / ".cache" / "hermes-eval"


def load_static(folder: Path):
    """A saved model2vec StaticModel from a local folder (never the hub)."""
    model2vec = require("model2vec", PIP)
    return model2vec.StaticModel.from_pretrained(str(folder), force_download=False)


@declare("retrievers.embedders_static.StaticEmbedder")
@dataclass
class StaticEmbedder(CachedEmbedder):
    """model2vec distilled from ``model``: ``pca_dims`` output dimensions, SIF weights, stored as ``quantize_to``."""

    model: str = "all-MiniLM-L6-v2"
    pca_dims: int | None = 256
    sif_coefficient: float | None = 1e-4
    quantize_to: str = "float16"
    models_dir: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._built: Built | None = None
        self._static = None

    @property
    def spec(self) -> BuildSpec:
        """What the table is distilled from (its folder's name is the build key)."""
        return static_spec(self.model, static_settings(self.pca_dims, self.sif_coefficient, self.quantize_to))

    @property
    def built(self) -> Built:
        if self._built is None:
            where = self.models_dir or self.cache_dir or str(DEFAULT_MODELS_DIR)
            self._built = build_static(self.model, where, self.pca_dims, self.sif_coefficient, self.quantize_to)
            self.stats["model_bytes"] = self._built.bytes
            self.stats["model_build"] = self._built.source
        return self._built

    @property
    def static(self):
        if self._static is None:
            self._static = load_static(self.built.path)
        return self._static

    @property
    def identity(self) -> str:
        if not hasattr(self, "_identity"):
            code = part_key([self], None, library_versions([__name__], ("model2vec", "tokenizers")))
            self._identity = (f"{self.spec.folder_name}|msl={self.max_seq_length}|norm={self.normalize}"
                              f"|code={code}")
        return self._identity

    @property
    def dim(self) -> int:
        return int(self.static.dim)

    def ready(self) -> None:
        self.static  # noqa: B018 - builds (first time) and loads the table

    def _encode(self, texts: list[str], query: bool) -> np.ndarray:
        vecs = np.asarray(self.static.encode(texts, max_length=self.max_seq_length, normalize=False,
                                             batch_size=max(self.batch_size, 1), use_multiprocessing=False),
                          dtype=np.float32)
        return self.l2_normalize(vecs) if self.normalize else vecs
