"""The reranker protocol and the helpers every reranker shares.

A reranker reorders the top ``depth`` of a fused candidate list; candidates below ``depth`` keep
their order underneath. Output scores never increase down the list: reranked heads carry the
reranker's scores, and the tail keeps its score gaps, shifted below the head.
"""
from __future__ import annotations

import threading
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from retrievers.leg_text import leg_text

Hit = tuple[str, float]


@runtime_checkable
class Reranker(Protocol):
    """``rerank(query, hits, pipeline)``; ``pipeline.chunk(id).text`` and ``pipeline.embedder``.

    ``needs_embedder``: whether it reads vectors through ``pipeline.embedder`` (the run then loads the
    embedder even when no leg is dense); a reranker subclasses this protocol and so starts from False."""

    depth: int
    stats: dict
    needs_embedder: bool = False

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]: ...


@runtime_checkable
class Scorer(Protocol):
    """A reranker that scores candidates; ``None`` means it failed and counted why. ``needs_embedder``
    as for :class:`Reranker` (a blend of a scorer needs what its scorer needs)."""

    stats: dict
    needs_embedder: bool = False

    def score(self, query: str, hits: Sequence[Hit], pipeline: Any) -> list[float] | None: ...


def check_depth(depth: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise ValueError(f"reranker depth must be a positive integer, got {depth!r}")


def bump(stats: dict, key: str, n: int = 1) -> None:
    stats[key] = stats.get(key, 0) + n


def arrange(hits: Sequence[Hit], depth: int, order: Sequence[int], scores: Sequence[float]) -> list[Hit]:
    """Head ``hits[:depth]`` in ``order`` with ``scores`` (one per head hit, by original index),
    then the tail in its own order, shifted to score below the lowest head score."""
    head, tail = list(hits[:depth]), list(hits[depth:])
    out = [(head[i][0], float(scores[i])) for i in order]
    if tail:
        floor = min(s for _, s in out) if out else 0.0
        top = tail[0][1]
        out += [(cid, floor - 1.0 - (top - s)) for cid, s in tail]
    return out


def by_scores(hits: Sequence[Hit], depth: int, scores: Sequence[float]) -> list[Hit]:
    """The head sorted by ``scores`` (best first, ties kept in fused order), tail below."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return arrange(hits, depth, order, scores)


def minmax(values: Sequence[float]) -> np.ndarray:
    """Values scaled to [0, 1] within the list; a constant list scales to zeros."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return v
    span = float(v.max() - v.min())
    return (v - v.min()) / span if span > 0 else np.zeros_like(v)


def query_vector(pipeline: Any, query: str) -> np.ndarray:
    """The query's bi-encoder vector: the one this search already computed when there is one."""
    last = getattr(pipeline, "last_query_vector", None)
    if last is not None and last[0] == query:
        return np.asarray(last[1], dtype=np.float32)
    return np.asarray(pipeline.embedder.embed_queries([query])[0], dtype=np.float32)


def unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


class DocVectors:
    """Chunk vectors by id, fetched through ``pipeline.embedder.embed_documents`` (which reads
    the embedding cache) on first sight and then kept, like a vector store's stored rows."""

    def __init__(self) -> None:
        self._vecs: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def get(self, pipeline: Any, ids: Sequence[str]) -> np.ndarray:
        """Unit vectors for ``ids``, one row each."""
        if pipeline.embedder is None:
            raise ValueError("this reranker needs the pipeline's bi-encoder (pipeline.embedder)")
        missing = [cid for cid in dict.fromkeys(ids) if cid not in self._vecs]
        if missing:
            vecs = unit(np.asarray(pipeline.embedder.embed_documents(
                [leg_text(pipeline.chunk(cid), "vector") for cid in missing]), dtype=np.float32))
            with self._lock:
                self._vecs.update(zip(missing, vecs))
        return np.stack([self._vecs[cid] for cid in ids]) if ids else np.zeros((0, 0), np.float32)
