"""A finished run's record, typed: :class:`RunRecord` holds every field record.json has beyond the run's
identity, and :meth:`RunRecord.as_dict` is what is written (the chain adds ``wall_seconds`` and
``finished_at``; a failed run's record is the identity with ``status``, ``error`` and the fault)."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from hermes_eval.stages.build import Built


@dataclass(frozen=True)
class RunRecord:
    """record.json of a run that finished (``status: ok``), field for field, in the record's order."""

    identity: dict[str, Any]  # what the record says before the run: config, hash, versions (chain._identity)
    warnings: list[str]
    corpus_info: dict[str, Any]
    indexed_fingerprint: str
    queryset_info: dict[str, Any]  # name, n (queries judged), manifest
    hygiene: dict[str, Any]
    chunks: dict[str, Any]  # sizes, token counts, and ``fallback``: language -> the chunker that stood in
    legs: list[str]
    metrics: dict[str, Any]
    rescored: dict[str, Any]  # the metrics re-computed from the run files (record/rescore.py)
    files: dict[str, Any]  # checksums of the run files
    latency_ms: dict[str, Any]  # stage -> percentiles, and ``total``
    warmup: int
    strata: dict[str, Any]  # language and repo -> metric means
    fusion_tuning: dict[str, Any] | None
    index: dict[str, Any]  # :func:`index_stats`
    snapshots: dict | None
    snapshot_work: dict | None
    shards: dict | None
    peak_rss_mb: float
    peak_rss_scope: str
    cache: list[dict[str, Any]]  # cache events: what was computed and what was read
    embeddings: dict[str, Any] | None  # :func:`embedding_stats`
    reranker: dict[str, Any] | None  # :func:`part_stats`, as are the next two
    expander: dict[str, Any] | None
    service: dict[str, Any] | None

    def as_dict(self) -> dict[str, Any]:
        """The identity's fields, ``status`` ok and no ``error``, then every other field (values as held,
        not copied)."""
        rest = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "identity"}
        return dict(self.identity, status="ok", error=None, **rest)


def embedding_stats(embedder: Any) -> dict | None:
    """The embedder's counters, with indexing throughput: documents encoded per second of encoding
    (model build and load excluded; absent when every vector came from the cache)."""
    if embedder is None:
        return None
    stats = dict(embedder.stats)
    secs, computed = float(stats.get("encode_seconds") or 0.0), int(stats.get("computed") or 0)
    stats["texts_per_s"] = round(computed / secs, 2) if computed and secs > 0 else None
    return stats


def index_stats(built: Built) -> dict:
    return {"build_seconds": {k: round(v, 4) for k, v in built.build_seconds.items()},
            "sources": dict(built.pipeline.build_sources),
            "build_seconds_total": round(built.build_total, 4), "bytes": built.index_bytes}


def part_stats(name: str | None, part: Any) -> dict | None:
    """A reranker's, expander's or service's name and counters (timeouts, errors, fallbacks...)."""
    if part is None:
        return None
    return {"name": name or type(part).__name__,
            "stats": json.loads(json.dumps(getattr(part, "stats", {}), default=str))}
