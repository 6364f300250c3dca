"""Document vectors encoded by the workers of a Ray cluster, into the run's embedding cache.

A run (or a sweep's prefetch) holding an embedder with ``scale_out`` set (conf/scale_out/ray.yaml) takes
the cache's lock for its model, lists the texts the cache lacks and cuts them into the slices this
process would encode them in (:func:`~retrievers.embedders.cache.missing_slices`: sorted by text sha,
``checkpoint`` texts a slice). Each slice is one Ray task: a worker builds a copy of the embedder from
its settings (once per worker process, on the run's device), checks that the copy's identity is the
run's (same model files, settings, code and libraries), encodes the slice whole, exactly as this process
would, and writes its rows into the same cache file (``cache_dir`` must be a path every worker sees).
The run then reads every vector from the cache. A vector's low bits depend on the batch it was encoded
in (sentence-transformers sorts a call's texts by length and pads each batch), and a slice is encoded
by one call, so the vectors are the ones one process makes: same rankings, same run.trec.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from retrievers.digest import text_sha
from retrievers.embedders.cache import EmbeddingCache, missing_slices, model_lock
from retrievers.identity.declare import declare

_WORKER_EMBEDDERS: dict[str, Any] = {}  # a worker process's embedder copies, by class and settings


def _worker_embedder(target: str, kwargs: dict) -> Any:
    key = f"{target}|{sorted(kwargs.items())!r}"
    if key not in _WORKER_EMBEDDERS:
        from hydra.utils import get_object

        _WORKER_EMBEDDERS[key] = get_object(target)(**kwargs)
    return _WORKER_EMBEDDERS[key]


def encode_slice(target: str, kwargs: dict, identity: str, texts: list[str]) -> dict:
    """On a worker: encode ``texts`` (one slice, whole) with a copy of the run's embedder and write the
    rows into its cache under ``identity``; what it did."""
    emb = _worker_embedder(target, kwargs)
    if emb.identity != identity:
        raise RuntimeError(f"a Ray worker (pid {os.getpid()}) would embed as {emb.identity!r}, the run as "
                           f"{identity!r}: its model files or libraries differ from the run's machine")
    before = emb.stats["encode_seconds"]
    vecs = emb._encode_documents(texts)
    emb._cache.put(identity, {text_sha(t): v for t, v in zip(texts, vecs)})
    return {"computed": len(texts), "encode_seconds": emb.stats["encode_seconds"] - before, "pid": os.getpid()}


@declare("retrievers.embedders.scale_out.RayScaleOut")
@dataclass
class RayScaleOut:
    """Encode what the cache lacks on a Ray cluster (``address``: ``auto``, ``host:port``; a process
    already connected, e.g. a job of Hydra's Ray launcher, uses its own connection). Each task asks for
    ``num_cpus`` CPUs and ``num_gpus`` GPUs (GPU workers: ``num_gpus: 1`` with ``embedder.device: cuda``)."""

    address: str = "auto"
    num_cpus: float = 1
    num_gpus: float = 0

    def embed(self, embedder: Any, cache: EmbeddingCache, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` (already prefixed), every one read from ``cache`` after the cluster has
        written the missing ones; ``embedder.stats`` counts them as computed (by the workers)."""
        identity = embedder.identity
        shas = [text_sha(t) for t in texts]
        done: list[dict] = []
        found = cache.get(identity, shas)
        if len(found) < len(set(shas)):
            with model_lock(cache, identity):  # one encoder of a model's missing texts at a time, as in one process
                found = cache.get(identity, shas)
                missing = {s: t for s, t in zip(shas, texts) if s not in found}
                if missing:
                    done = self._run(embedder, identity, missing_slices(missing, embedder.checkpoint))
                    found.update(cache.get(identity, list(missing)))
        lost = len(set(shas)) - len(found)
        if lost:
            raise RuntimeError(f"{lost} document vectors are not in the embedding cache {cache.path} after the "
                               "Ray workers wrote theirs: is embedder.cache_dir a path every worker sees?")
        computed = sum(d["computed"] for d in done)
        stats = embedder.stats
        stats["computed"] += computed
        stats["cached"] += len(texts) - computed
        stats["encode_seconds"] = round(stats["encode_seconds"] + sum(d["encode_seconds"] for d in done), 4)
        stats.update(cache.damage)
        if done:
            stats["scale_out"] = {"backend": "ray", "tasks": len(done), "workers": len({d["pid"] for d in done})}
        return np.stack([found[s] for s in shas]).astype(np.float32)

    def _run(self, embedder: Any, identity: str, slices: list[list[tuple[str, str]]]) -> list[dict]:
        import ray

        connected_here = not ray.is_initialized()
        if connected_here:
            ray.init(address=self.address, log_to_driver=False)
        try:
            kwargs = embedder.worker_kwargs()
            if kwargs.get("cache_dir"):
                kwargs["cache_dir"] = os.path.abspath(kwargs["cache_dir"])  # workers start elsewhere
            target = f"{type(embedder).__module__}.{type(embedder).__qualname__}"
            task = ray.remote(num_cpus=self.num_cpus, num_gpus=self.num_gpus)(encode_slice)
            return ray.get([task.remote(target, kwargs, identity, [t for _, t in part]) for part in slices])
        finally:
            if connected_here:
                ray.shutdown()
