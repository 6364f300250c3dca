"""The embedder protocol, and what every locally built embedder shares: prefixes, the document-vector
cache, and the counters a run records (vectors computed and read, seconds spent encoding documents,
model size on disk).

Subclasses give :meth:`_encode` (texts -> pooled, normalized float32 rows), :attr:`identity` (the
cache key's model part) and :attr:`dim`. Query vectors are never cached: their time is the
measured ``embed`` stage.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from retrievers.embedders.cache import EmbeddingCache, text_sha


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
        identity = self.identity
        shas = [text_sha(t) for t in texts]
        found = self._cache.get(identity, shas)
        missing = sorted({s: t for s, t in zip(shas, texts) if s not in found}.items())
        if missing:
            from filelock import FileLock

            # parallel sweep jobs embedding the same texts: one computes, the others wait and read
            with FileLock(str(self._cache.path) + f".{text_sha(identity)[:12]}.lock"):
                found.update(self._cache.get(identity, [s for s, _ in missing]))
                missing = [(s, t) for s, t in missing if s not in found]
                if missing:
                    vecs = self._encode_documents([t for _, t in missing])
                    fresh = {s: v for (s, _), v in zip(missing, vecs)}
                    self._cache.put(identity, fresh)
                    found.update(fresh)
        self.stats["computed"] += len(missing)
        self.stats["cached"] += len(texts) - len(missing)
        self.stats.update(self._cache.damage)
        return np.stack([found[s] for s in shas]).astype(np.float32)
