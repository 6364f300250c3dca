"""Sentence-transformers embedder with query/document prefixes and a shared on-disk cache."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from retrievers.identity.key import part_key
from retrievers.identity.libraries import library_versions
from retrievers.identity.probe import encoder_probe
from retrievers.embedders.cache import EmbeddingCache, embed_through_cache
from retrievers.embedders.clip import clipper
from retrievers.embedders.model_source import ModelUnavailable, model_identity, resolve_model
from retrievers.progress import count_forward_passes
from retrievers.identity.declare import declare

@declare("retrievers.embedders.SentenceTransformerEmbedder")
@dataclass
class SentenceTransformerEmbedder:
    """Any sentence-transformers model by name or path; the default is the packaged MiniLM."""

    model: str = "all-MiniLM-L6-v2"
    query_prefix: str = ""
    document_prefix: str = ""
    normalize: bool = True
    batch_size: int = 64
    max_seq_length: int | None = 256
    device: str = "cpu"
    cache_dir: str | None = None
    checkpoint: int = 1024  # documents encoded between two writes to the cache
    # hand the tokenizer a head of each long document that already holds more tokens than the model keeps
    # (retrievers/embedders/clip.py): the same input ids, without tokenizing whole files of up to 1 MB
    clip: bool = True
    # torch intra-op threads while embedding one query: 1 is barely slower than 2 on short text
    # and far steadier when other processes share the cores (None leaves torch's default)
    query_threads: int | None = 1
    # computed / cached rows, cache damage found (corrupt rows recomputed, a corrupt file moved aside),
    # seconds spent encoding documents (the run's texts/s) and the model folder's bytes on disk
    stats: dict = field(default_factory=lambda: {"computed": 0, "cached": 0, "corrupt_rows": 0,
                                                 "corrupt_file_moved_to": None, "encode_seconds": 0.0,
                                                 "model_bytes": None})

    def __post_init__(self) -> None:
        self._model = None
        self._cache = EmbeddingCache(Path(self.cache_dir) / "embeddings.sqlite") if self.cache_dir else None

    @property
    def st(self):
        if self._model is None:
            self._model = self._load()
        return self._model

    def _load(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        path = resolve_model(self.model)
        try:
            model = SentenceTransformer(path, device=self.device)
        except Exception as exc:  # hub errors come in many types
            raise ModelUnavailable(
                f"embedder model {self.model!r} cannot be loaded ({type(exc).__name__}); no model hub is "
                f"reachable here: set embedder.model to a local folder or to all-MiniLM-L6-v2") from None
        if self.max_seq_length:
            model.max_seq_length = self.max_seq_length
        self._path = path
        if Path(path).is_dir():
            self.stats["model_bytes"] = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
        return model

    @property
    def identity(self) -> str:
        """Model content hash plus everything that changes a vector: settings, this wrapper's declared
        identity, the versions of the libraries under it (sentence-transformers, transformers, torch...)
        and the vectors it makes of the probe texts."""
        self.st  # noqa: B018 - loads the model and resolves its path
        if not hasattr(self, "_identity"):
            code = part_key([self], encoder_probe(self._clipped_encode),
                            library_versions([__name__], ("transformers", "tokenizers", "torch")))
            self._identity = (f"{model_identity(self._path)}|msl={self.max_seq_length}"
                              f"|norm={self.normalize}|code={code}")
        return self._identity

    @property
    def dim(self) -> int:
        get = getattr(self.st, "get_embedding_dimension", None) or self.st.get_sentence_embedding_dimension
        return int(get())

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self.st.encode(texts, batch_size=self.batch_size, show_progress_bar=False,
                                         normalize_embeddings=self.normalize,
                                         convert_to_numpy=True), dtype=np.float32)

    def _clipped_encode(self, texts: list[str]) -> np.ndarray:
        """Document vectors, each document first cut to a head the model's window cannot see past."""
        cut = clipper(self.st.tokenizer, self.st.max_seq_length) if self.clip else None
        return self._encode([cut(x) for x in texts] if cut is not None else texts)

    def _timed_encode(self, texts: list[str]) -> np.ndarray:
        """Document vectors, their encoding time added to ``stats['encode_seconds']`` (model loaded first)."""
        self.st  # noqa: B018 - loading is not encoding
        t = time.perf_counter()
        vecs = self._clipped_encode(texts)
        self.stats["encode_seconds"] = round(self.stats["encode_seconds"] + time.perf_counter() - t, 4)
        return vecs

    def embed_queries(self, queries: Sequence[str]) -> np.ndarray:
        """Query vectors, never cached: their time is part of the measured latency."""
        if self.query_threads is None:
            return self._encode([self.query_prefix + q for q in queries])
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.query_threads)
        try:
            return self._encode([self.query_prefix + q for q in queries])
        finally:
            torch.set_num_threads(before)

    def embed_documents(self, docs: Sequence[str]) -> np.ndarray:
        """Document vectors, read from and written to the cache when there is one."""
        texts = [self.document_prefix + d for d in docs]
        if self._cache is None:
            self.stats["computed"] += len(texts)
            return self._timed_encode(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return embed_through_cache(self._cache, self.identity, texts, self._timed_encode, self.stats, self.checkpoint,
                                   lambda n: count_forward_passes(self.st, "embedding", n))
