"""Stage 2, build: instantiate the pipeline's parts and build (or load) its indexes through the cache."""
from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from hermes_eval.cache.indexes import CachedIndexStore, leg_keys
from hermes_eval.config.parts import instantiate_part
from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Corpus, UserError
from hermes_eval.record.manifest import dir_bytes
from hermes_eval.stages.foreign import ForeignChunks
from retrievers.chunk import Chunk
from retrievers.leg_text import leg_texts
from retrievers.legs import active_legs, needs_embedder
from retrievers.pipeline import Depths, Pipeline
from retrievers.sparse.memo import TermCountStore, memoize_tokenizers

if TYPE_CHECKING:
    from retrievers.dense.snapshot_legs import SnapshotDense


@dataclass
class Parts:
    """The instantiated pipeline (or service adapter) and the optional parts it holds."""

    pipeline: Any
    embedder: Any = None
    reranker: Any = None
    expander: Any = None
    foreign: ForeignChunks | None = None  # a service's hits that are not this run's chunks


@dataclass
class Built:
    parts: Parts
    build_seconds: dict[str, float] = field(default_factory=dict)  # per leg, and ``embed``
    build_total: float = 0.0
    index_bytes: dict[str, int] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)  # index cache hits and builds

    @property
    def pipeline(self) -> Any:
        return self.parts.pipeline


@dataclass
class SnapshotShared:
    """What the builds of a snapshot set share: each text-tokenizing leg's memo (by leg name), the
    term-count store the memos read, and the model-backed parts loaded once (:func:`make_parts`)."""

    memos: dict = field(default_factory=dict)
    count_store: TermCountStore | None = None
    loaded: dict = field(default_factory=dict)
    dense: "SnapshotDense | None" = None  # the dense legs' one vector store (made by the first build needing it)

    def close(self) -> None:
        """Let go of the shared vector store (and its memory-mapped files)."""
        if self.dense is not None:
            self.dense.close()
            self.dense = None


def make_parts(s: RunSettings, indexed: Corpus, overfetch: int = 0, loaded: dict | None = None) -> Parts:
    """Instantiate the legs that run, fusion, embedder (only when something needs vectors),
    reranker and expander, or the HTTP service adapter; every depth grows by ``overfetch``.
    ``loaded`` (kept by the caller across builds: a snapshot set's) holds the model-backed parts,
    built once and shared: a model loaded per snapshot costs its load, and torch's module graph is
    cyclic garbage that only a full collection frees (MiniLM over SWE-bench Lite's 137 function-level
    snapshots grew 55 MB per snapshot, to a 9.7 GB peak)."""
    def once(role: str, make: Any) -> Any:
        if loaded is None:
            return make()
        if role not in loaded:
            loaded[role] = make()
        return loaded[role]

    fusion = s.fusion.build()
    legs = {name: s.legs[name].build() for name in active_legs(s.legs, fusion)}
    depths = Depths(**{name: v + overfetch if name != "k" else v for name, v in s.depths.items()})
    reranker = once("reranker", s.reranker.build) if s.reranker else None
    expander = once("expander", s.expander.build) if s.expander else None
    embedder = once("embedder", s.embedder.build) if needs_embedder(legs.values(), reranker) else None
    if s.service is not None:  # a running search service, scored as a black box
        if reranker is not None or expander is not None:
            raise UserError("retriever=http scores a running service as it is: set reranker=none and "
                            "expander=none (the service reranks and expands by itself)")
        return Parts(pipeline=s.service.build(), embedder=embedder, foreign=ForeignChunks(indexed.files))
    pipeline = Pipeline(legs=legs, fusion=fusion, embedder=embedder, depths=depths, reranker=reranker,
                        expander=expander)
    return Parts(pipeline=pipeline, embedder=embedder, reranker=reranker, expander=expander)


def build(s: RunSettings, indexed: Corpus, chunks: Sequence[Chunk], overfetch: int = 0,
          shared: SnapshotShared | None = None) -> Built:
    """Parts for ``s`` with every index built over ``chunks`` (loaded from the cache when it has them).
    ``shared`` (kept by the caller across builds: the snapshots of a repository) makes each
    text-tokenizing leg tokenize a text once over all the builds that share it, and once ever with
    its count store; such builds skip the index cache: a saved index holds every document of its
    snapshot, so the cache would store each unchanged file once per snapshot (2.5 GB for SWE-bench
    Lite's BM25 over whole files), while rebuilding from the shared counts costs less than loading
    it. Their dense legs share one vector store (:mod:`retrievers.dense.snapshot_legs`): each distinct text
    is embedded (or read from the embedding cache) once for the set, and an exact leg searches only this
    snapshot's rows of it; ``s.snapshot_dense`` says how the other backends use it."""
    parts = make_parts(s, indexed, overfetch, shared.loaded if shared is not None else None)
    pipeline = parts.pipeline
    if shared is not None and hasattr(pipeline, "legs"):
        memoize_tokenizers(pipeline.legs, shared.memos, shared.count_store)
    store = _index_store(s, pipeline, chunks) if s.index_cache and shared is None else None
    t0 = time.perf_counter()
    vectors, embed_s = _shared_vectors(s, shared, pipeline, chunks)
    seconds = pipeline.build(chunks, vectors=vectors, store=store)
    if vectors is not None:
        seconds["embed"] = embed_s
    total = time.perf_counter() - t0
    # a snapshot set's indexes are not saved, so not measured on disk either (saving each costs a build)
    nbytes = store.bytes if store is not None else {} if shared is not None else _index_bytes(pipeline)
    return Built(parts, seconds, total, nbytes, list(store.events) if store is not None else [])


def _shared_vectors(s: RunSettings, shared: SnapshotShared | None, pipeline: Any, chunks: Sequence[Chunk]
                    ) -> tuple[Any, float]:
    """A snapshot's documents for the pipeline's vector legs, from the set's one store (None outside a
    snapshot set or without a vector leg), and the seconds spent embedding what the store lacked."""
    legs = getattr(pipeline, "legs", None)
    if shared is None or not legs or not any(getattr(ix, "input", None) == "vector" for ix in legs.values()):
        return None, 0.0
    if shared.dense is None:
        settings = s.snapshot_dense.build() if s.snapshot_dense is not None else None
        if settings is not None and not settings.store:
            return None, 0.0
        from retrievers.dense.snapshot_legs import SnapshotDense  # faiss, the vector store: dense legs only

        shared.dense = SnapshotDense(settings)
    t = time.perf_counter()
    vectors = shared.dense.attach(legs, leg_texts(chunks, "vector"), pipeline.embedder.embed_documents)
    return vectors, time.perf_counter() - t


def _index_store(s: RunSettings, pipeline: Any, chunks: Sequence[Chunk]) -> CachedIndexStore:
    """The content-addressed index cache for this run's legs."""
    identity = pipeline.embedder.identity if pipeline.embedder is not None else None
    keys = leg_keys({n: dict(s.legs[n].node) for n in pipeline.legs}, chunks, identity,
                    {n: ix.input for n, ix in pipeline.legs.items()}, instantiate_part)
    return CachedIndexStore(s.paths.cache, keys)


def _index_bytes(pipeline: Any) -> dict[str, int]:
    """Bytes each leg takes when saved to disk."""
    out: dict[str, int] = {}
    tmp = Path(tempfile.mkdtemp(prefix="hermes-index-"))
    try:
        for name, ix in getattr(pipeline, "legs", {}).items():
            ix.save(tmp / name)
            out[name] = dir_bytes(tmp / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
