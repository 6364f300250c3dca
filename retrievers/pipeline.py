"""Compose chunks, indexes, fusion and an optional reranker into one searchable pipeline."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from retrievers.chunk import Chunk
from retrievers.fusion import WeightedRRF
from retrievers.index import Hit, Index, check_k


@dataclass(frozen=True)
class Depths:
    """Candidate depths: how many hits each leg returns, fusion keeps, the pipeline returns."""

    sparse_top_k: int = 100
    dense_top_k: int = 100
    fused_top_k: int = 100
    k: int = 100

    def leg(self, name: str) -> int:
        return self.dense_top_k if name.startswith("dense") else self.sparse_top_k


@dataclass
class SearchResult:
    hits: list[Hit]
    timings_ns: dict[str, int]


@dataclass
class Pipeline:
    """Named legs (``sparse``/``dense`` or any name; a ``vector`` leg needs an embedder),
    fused by ``fusion``; legs whose fusion weight is 0 are not built or searched."""

    legs: Mapping[str, Index]
    fusion: WeightedRRF = field(default_factory=WeightedRRF)
    embedder: Any = None
    depths: Depths = field(default_factory=Depths)
    reranker: Any = None

    def __post_init__(self) -> None:
        self.legs = {n: ix for n, ix in self.legs.items() if ix is not None and self.fusion.weight(n) != 0}
        if not self.legs:
            raise ValueError("the pipeline has no leg with a non-zero fusion weight")
        if any(ix.input == "vector" for ix in self.legs.values()) and self.embedder is None:
            raise ValueError("a dense leg needs an embedder")
        self._chunks: dict[str, Chunk] = {}

    @property
    def needs_vectors(self) -> bool:
        return any(ix.input == "vector" for ix in self.legs.values())

    def build(self, chunks: Sequence[Chunk], vectors=None) -> dict[str, float]:
        """Build every leg; returns build seconds per leg (embedding counted under ``embed``)."""
        ids = [c.id for c in chunks]
        self._chunks = {c.id: c for c in chunks}
        seconds: dict[str, float] = {}
        if self.needs_vectors and vectors is None:
            t = time.perf_counter()
            vectors = self.embedder.embed_documents([c.text for c in chunks])
            seconds["embed"] = time.perf_counter() - t
        for name, ix in self.legs.items():
            t = time.perf_counter()
            ix.build(ids, vectors if ix.input == "vector" else [c.text for c in chunks])
            seconds[name] = time.perf_counter() - t
        return seconds

    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunks[chunk_id]

    def search(self, query: str, k: int | None = None) -> SearchResult:
        """Search one query, timing each stage (embed, each leg, fuse, rerank) in nanoseconds."""
        k = check_k(k or self.depths.k)
        timings: dict[str, int] = {}
        lists: dict[str, list[Hit]] = {}
        qvec = None
        if self.needs_vectors:
            t = time.perf_counter_ns()
            qvec = self.embedder.embed_queries([query])
            timings["embed"] = time.perf_counter_ns() - t
        for name, ix in self.legs.items():
            t = time.perf_counter_ns()
            lists[name] = ix.search(qvec if ix.input == "vector" else [query], self.depths.leg(name))[0]
            timings[name] = time.perf_counter_ns() - t
        t = time.perf_counter_ns()
        if len(lists) == 1:
            hits = next(iter(lists.values()))[: self.depths.fused_top_k]
        else:
            hits = self.fusion.fuse(lists, self.depths.fused_top_k)
        timings["fuse"] = time.perf_counter_ns() - t
        if self.reranker is not None:
            t = time.perf_counter_ns()
            hits = self.reranker.rerank(query, hits, self)
            timings["rerank"] = time.perf_counter_ns() - t
        return SearchResult(hits=hits[:k], timings_ns=timings)
