"""The embedder protocol, and what every locally built embedder shares: prefixes, the document-vector
cache, and the counters a run records (vectors computed and read, seconds spent encoding documents,
model size on disk).

Subclasses give :meth:`_encode` (texts -> pooled, normalized float32 rows), :attr:`identity` (the
cache key's model part) and :attr:`dim`. Query vectors are never cached: their time is the
measured ``embed`` stage.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, ContextManager, Protocol, Sequence, runtime_checkable

import numpy as np

from retrievers.embedders.cache import EmbeddingCache, embed_through_cache


@runtime_checkable
class Embedder(Protocol):
    """Texts to float32 rows (one per text, ``dim`` wide, unit length when normalizing).

    ``embed_queries`` is never cached (its time is the measured ``embed`` stage);
    ``embed_documents`` may read and write a document cache keyed by ``identity``, the model and
    everything else that changes a vector. ``stats`` holds the counters a run records.
    """

    stats: dict

    @property
    def identity(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_queries(self, queries: Sequence[str]) -> np.ndarray: ...

    def embed_documents(self, docs: Sequence[str]) -> np.ndarray: ...


def new_stats() -> dict:
    return {"computed": 0, "cached": 0, "corrupt_rows": 0, "corrupt_file_moved_to": None,
            "encode_seconds": 0.0, "model_bytes": None, "model_build": None}


@dataclass
class CachedEmbedder:
    """Prefixes and the shared document cache around a subclass's ``_encode``."""

    query_prefix: str = ""
    document_prefix: str = ""
    normalize: bool = True
    batch_size: int = 64
    max_seq_length: int = 256
    cache_dir: str | None = None
    checkpoint: int = 1024  # documents encoded between two writes to the cache
    # what encodes the documents the cache lacks before this process reads them all from it: None (this
    # process), or a cluster's workers (embedders/scale_out.py; conf/scale_out/). Same vectors either way
    scale_out: Any = None
    stats: dict = field(default_factory=new_stats)

    def __post_init__(self) -> None:
        self._cache = EmbeddingCache(Path(self.cache_dir) / "embeddings.sqlite") if self.cache_dir else None

    # -- provided by subclasses ------------------------------------------------------------------
    @property
    def identity(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def dim(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _encode(self, texts: list[str], query: bool) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def ready(self) -> None:  # pragma: no cover - abstract
        """Build or load the model now (outside any timed encode)."""
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------------
    @staticmethod
    def l2_normalize(vecs: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return (vecs / np.maximum(norms, 1e-12)).astype(np.float32)

    def embed_queries(self, queries: Sequence[str]) -> np.ndarray:
        """Query vectors, never cached: their time is part of the measured latency."""
        texts = [self.query_prefix + q for q in queries]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode(texts, query=True)

    def _encode_documents(self, texts: list[str]) -> np.ndarray:
        self.ready()  # encode_seconds is encoding alone, never the model's build or load
        t = time.perf_counter()
        vecs = self._encode(texts, query=False)
        self.stats["encode_seconds"] = round(self.stats["encode_seconds"] + time.perf_counter() - t, 4)
        return vecs

    def embed_documents(self, docs: Sequence[str]) -> np.ndarray:
        """Document vectors, read from and written to the cache when there is one."""
        texts = [self.document_prefix + d for d in docs]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._cache is None:
            self.stats["computed"] += len(texts)
            return self._encode_documents(texts)
        if self.scale_out is not None:
            return self.scale_out.embed(self, self._cache, texts)
        return embed_through_cache(self._cache, self.identity, texts, self._encode_documents, self.stats,
                                   self.checkpoint, self._document_progress())

    def worker_kwargs(self) -> dict:
        """The settings a copy of this embedder in another process is built from (not its counters nor
        its scale-out): the copy's vectors and identity are this one's."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init and f.name not in ("stats", "scale_out")}

    def _document_progress(self) -> Callable[[int], ContextManager] | None:
        """What reports the progress of encoding ``n`` missing documents (None: nothing)."""
        return None
