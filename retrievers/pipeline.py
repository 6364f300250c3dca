"""Compose chunks, indexes, fusion and an optional reranker into one searchable pipeline."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from retrievers.chunk import Chunk
from retrievers.embedders.base import Embedder
from retrievers.expanders.base import Expander
from retrievers.fusion.base import Fusion
from retrievers.fusion.rrf import WeightedRRF
from retrievers.legs import active_legs, needs_embedder
from retrievers.leg_text import leg_texts
from retrievers.index import Hit, Index, SearchResult, check_k
from retrievers.progress import track
from retrievers.rerankers.base import Reranker


class IndexStore(Protocol):
    """Loads a leg's index when it has one for it, else builds and keeps it; says which."""

    def __call__(self, name: str, index: Index, build: Callable[[], None]) -> str: ...


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
class Pipeline:
    """Named legs (``sparse``/``dense`` or any name; a ``vector`` leg needs an embedder),
    fused by ``fusion``; legs whose fusion weight is 0 are not built or searched."""

    legs: Mapping[str, Index]
    fusion: Fusion = field(default_factory=WeightedRRF)
    embedder: Embedder | None = None
    depths: Depths = field(default_factory=Depths)
    reranker: Reranker | None = None
    # query variants: ``expander.expand(query)`` -> alternatives; every leg searches the original
    # and each alternative, as lists ``<leg>@q0`` (original), ``<leg>@q1``, ... for the fusion
    expander: Expander | None = None

    def __post_init__(self) -> None:
        self.legs = {n: self.legs[n] for n in active_legs(self.legs, self.fusion)}
        if not self.legs:
            raise ValueError("the pipeline has no leg with a non-zero fusion weight")
        if self.needs_vectors and self.embedder is None:
            raise ValueError("a dense leg needs an embedder")
        self._chunks: dict[str, Chunk] = {}

    @property
    def needs_vectors(self) -> bool:
        return needs_embedder(self.legs.values())

    def build(self, chunks: Sequence[Chunk], vectors=None, store: IndexStore | None = None
              ) -> dict[str, float]:
        """Build every leg; returns seconds per leg (embedding counted under ``embed``).

        With a ``store``, each leg is loaded from it when present and saved to it otherwise;
        ``build_sources`` then says which legs were built and which were loaded.
        """
        ids = [c.id for c in chunks]
        texts = {"text": leg_texts(chunks, "text")}  # a chunker's header cut may drop lines for some legs
        self._chunks = dict(zip(ids, chunks))
        seconds: dict[str, float] = {}
        self.build_sources: dict[str, str] = {}
        state = {"vectors": vectors}

        def docs_for(ix: Index):
            if ix.input != "vector":
                return texts["text"]
            if state["vectors"] is None:
                t = time.perf_counter()
                state["vectors"] = self.embedder.embed_documents(leg_texts(chunks, "vector"))
                seconds["embed"] = time.perf_counter() - t
            return state["vectors"]

        with track("indexes", len(self.legs), "legs") as tracker:
            for name, ix in self.legs.items():
                embed_before = seconds.get("embed", 0.0)
                t = time.perf_counter()
                build = lambda ix=ix: ix.build(ids, docs_for(ix))  # noqa: E731
                if store is None:
                    build()
                    self.build_sources[name] = "computed"
                else:
                    self.build_sources[name] = store(name, ix, build)
                seconds[name] = time.perf_counter() - t - (seconds.get("embed", 0.0) - embed_before)
                tracker.update()
        return seconds

    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunks[chunk_id]

    def search(self, query: str, k: int | None = None) -> SearchResult:
        """Search one query, timing each stage (expand, embed, each leg, fuse, rerank) in ns:
        :meth:`legs_for` then :meth:`finish`, cut to ``k``."""
        k = check_k(k or self.depths.k)
        lists, timings = self.legs_for(query)
        hits, more = self.finish(query, lists)
        timings.update(more)
        return SearchResult(hits=hits[:k], timings_ns=timings)

    def legs_for(self, query: str) -> tuple[dict[str, list[Hit]], dict[str, int]]:
        """Every leg's hits for ``query`` (expanded and embedded as the pipeline does), keyed by
        leg name, or ``<leg>@q<i>`` per query variant with an expander; with the ns spent in
        ``expand``, ``embed`` and each leg. Sets :attr:`last_query_vector` for the reranker."""
        timings: dict[str, int] = {}
        lists: dict[str, list[Hit]] = {}
        queries = [query]
        if self.expander is not None:
            t = time.perf_counter_ns()
            queries += self.expander.expand(query)
            timings["expand"] = time.perf_counter_ns() - t
        qvec = None
        if self.needs_vectors:
            t = time.perf_counter_ns()
            qvec = self.embedder.embed_queries(queries)
            timings["embed"] = time.perf_counter_ns() - t
            self.last_query_vector = (query, qvec[0])  # rerankers reuse it
        for name, ix in self.legs.items():
            t = time.perf_counter_ns()
            found = ix.search(qvec if ix.input == "vector" else queries, self.depths.leg(name))
            timings[name] = time.perf_counter_ns() - t
            if self.expander is None:
                lists[name] = found[0]
            else:
                lists.update({f"{name}@q{i}": hits for i, hits in enumerate(found)})
        return lists, timings

    def finish(self, query: str, lists: Mapping[str, list[Hit]], fusion: Fusion | None = None,
               query_vector: Any = None) -> tuple[list[Hit], dict[str, int]]:
        """Fuse ``lists`` (from :meth:`legs_for` for ``query``) with ``fusion`` or the pipeline's
        own (a single list is taken as it is), cut to ``fused_top_k``, then rerank when there is
        a reranker; with the ns spent in ``fuse`` and ``rerank``.

        Calling it again for the same ``lists`` with other fusions is how tuning scores them.
        ``query_vector`` (``query``'s embedding) is handed to the reranker as
        :attr:`last_query_vector` when finishing a query other than the one last searched.
        """
        timings: dict[str, int] = {}
        if query_vector is not None:
            self.last_query_vector = (query, query_vector)
        t = time.perf_counter_ns()
        if len(lists) == 1:
            hits = next(iter(lists.values()))[: self.depths.fused_top_k]
        else:
            hits = (self.fusion if fusion is None else fusion).fuse(lists, self.depths.fused_top_k)
        timings["fuse"] = time.perf_counter_ns() - t
        if self.reranker is not None:
            t = time.perf_counter_ns()
            hits = self.reranker.rerank(query, hits, self)
            timings["rerank"] = time.perf_counter_ns() - t
        return hits, timings
