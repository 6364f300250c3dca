"""One run: build the pipeline from config, run every query with per-stage timing, score it,
and write the run directory (record.json last, atomically, so a record means a finished run)."""
from __future__ import annotations

import json
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from omegaconf import DictConfig

from hermes_eval import __version__
from hermes_eval.judge.budget import token_stats
from hermes_eval.cache.content import Cache, atomic_write_bytes, key_of
from hermes_eval.config.identity import config_hash, slug, system_label
from hermes_eval.config.parts import instantiate_part, plain
from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.core.errors import UserError
from hermes_eval.run.tuning import apply_fusion_tuning
from hermes_eval.cache.indexes import CachedIndexStore, leg_keys
from hermes_eval.record.manifest import dir_bytes, git_commit, machine, peak_rss_mb, versions
from hermes_eval.run.search import run_queries
from hermes_eval.judge.latency import latency_summary
from hermes_eval.judge.hygiene import check as hygiene_check
from hermes_eval.judge.hygiene import hygiene_params
from hermes_eval.querysets.obtain import obtain_queryset
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.record.write import write_run_files
from hermes_eval.judge.score import score
from hermes_eval.run.foreign import ForeignChunks
from hermes_eval.config.validate import validate, validate_queries
from retrievers.chunkers.base import chunk_files
from retrievers.pipeline import Depths, Pipeline

__all__ = ["RunOutcome", "execute", "find_record", "git_commit", "machine", "versions"]


def find_record(runs_dir: Path, chash: str) -> Path | None:
    """An existing finished record with this config hash (resume)."""
    for rec in sorted(runs_dir.glob(f"*-{chash}/record.json")):
        try:
            if json.loads(rec.read_text()).get("status") == "ok":
                return rec
        except (OSError, json.JSONDecodeError):
            continue
    return None


@dataclass
class RunOutcome:
    status: str
    run_dir: Path
    record: dict
    skipped: bool = False


def execute(cfg: DictConfig) -> RunOutcome:
    """Run ``cfg`` unless a finished record with its hash exists; failures become records."""
    chash = config_hash(cfg)
    runs_dir = Path(cfg.paths.runs)
    if not cfg.get("rerun", False):
        existing = find_record(runs_dir, chash)
        if existing is not None:
            return RunOutcome("ok", existing.parent, json.loads(existing.read_text()), skipped=True)
    label = system_label(cfg)
    run_dir = runs_dir / f"{slug(f'{cfg.chunker.name}-{label}')}-{chash}"
    base = {"schema": 1, "config_hash": chash, "config": plain(cfg), "system": label,
            "chunker": cfg.chunker.name, "queryset": cfg.queryset.name, "corpus": cfg.corpus.name,
            "seed": int(cfg.seed), "versions": versions(), "machine": machine(), "git_commit": git_commit(),
            "hermes_eval_version": __version__, "experiment": cfg.get("experiment_name")}
    started = time.time()
    try:
        record = _run(cfg, run_dir, base)
    except Exception as exc:  # noqa: BLE001 - a failed run is recorded, never lost
        record = dict(base, status="failed", error=_one_line(exc),
                      traceback=traceback.format_exc(limit=8)[-4000:])
    record["wall_seconds"] = round(time.time() - started, 3)
    record["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(run_dir / "record.json", (json.dumps(record, indent=2, sort_keys=True) + "\n").encode())
    return RunOutcome(record["status"], run_dir, record)


def _one_line(exc: BaseException) -> str:
    msg = " ".join(str(exc).split())[:400]  # one line, even for multi-line library errors
    return msg if isinstance(exc, UserError) else f"{type(exc).__name__}: {msg}"


def _run(cfg: DictConfig, run_dir: Path, base: dict) -> dict:
    validate(cfg)
    cache = Cache(cfg.paths.cache)
    seed = int(cfg.seed)
    corpus = load_corpus(list(cfg.corpus.sources), name=cfg.corpus.name, cache_dir=cfg.paths.cache,
                         max_file_bytes=int(cfg.corpus.get("max_file_bytes", 1_000_000)),
                         languages=cfg.corpus.get("languages"))
    qs = obtain_queryset(cfg, corpus)
    indexed = mask_corpus(corpus, qs.masks)
    validate_queries(qs, indexed, f"query set {cfg.queryset.name!r}")
    hygiene = hygiene_check(qs, indexed, **hygiene_params(cfg))
    warnings_ = _hygiene_warnings(cfg, hygiene)

    chunker = instantiate_part(cfg.chunker)
    chunks = cache.get_or_compute(
        "chunks", key_of(indexed.fingerprint, plain(cfg.chunker)),
        lambda: chunk_files(chunker, [(f.path, f.text, f.language) for f in indexed.files]))
    if not chunks:
        raise UserError(f"chunker {cfg.chunker.name!r} produced no chunks for corpus {corpus.name!r}")
    lookup = ChunkLookup(chunks)

    # queries with `exclude` spans: every stage fetches this many more, dropped before scoring
    overfetch = int(cfg.get("exclude_overfetch", 50)) if any(q.exclude for q in qs.queries) else 0
    parts = _build_parts(cfg, overfetch, indexed)
    pipeline = parts.pipeline
    store = _index_store(cfg, pipeline, chunks) if cfg.get("index_cache", True) else None
    t0 = time.perf_counter()
    build_seconds = pipeline.build(chunks, store=store)
    build_total = time.perf_counter() - t0
    index_bytes = store.bytes if store is not None else _index_bytes(pipeline)
    if store is not None:
        cache.events.extend(store.events)

    # tuning fits fusion on a train split of the queries and hands back the held-out rest
    queries, tuning = apply_fusion_tuning(cfg.get("fusion_tuning"), pipeline, list(qs.queries), lookup, seed)
    k = int(cfg.depths.k)
    measured = run_queries(pipeline, queries, lookup, k, overfetch, int(cfg.warmup), parts.foreign)
    if parts.foreign is not None and parts.foreign.ids:
        lookup = ChunkLookup(list(lookup.by_id.values()))
        warnings_.append(f"FOREIGN CHUNKS: the service returned {len(parts.foreign.ids)} spans that are not "
                         f"chunks of chunker {cfg.chunker.name!r}; they are judged by overlap, but chunk-level "
                         f"recall assumes that chunking: compare services by file level and line coverage")
    scores = score(queries, measured.rankings, lookup, seed, int(cfg.get("bootstrap", 1000)))
    latency = {stage: latency_summary(v) for stage, v in sorted(measured.stage_ns.items())}
    latency["total"] = latency_summary(measured.total_ns)
    write_run_files(run_dir, slug(base["system"]) or "run", queries, measured, scores)
    sizes = [c.n_lines for c in chunks]
    embedder = parts.embedder
    return dict(
        base, status="ok", error=None, warnings=warnings_,
        corpus_info=corpus.summary(), indexed_fingerprint=indexed.fingerprint,
        queryset_info={"name": qs.name, "n": len(queries), "manifest": qs.manifest},
        hygiene=hygiene.to_dict(),
        chunks={"count": len(chunks), "lines_mean": round(float(np.mean(sizes)), 3),
                "lines_p50": float(np.percentile(sizes, 50)), "lines_p95": float(np.percentile(sizes, 95)),
                "chars_mean": round(float(np.mean([len(c.text) for c in chunks])), 1), **token_stats(chunks)},
        legs=list(pipeline.legs), metrics=scores.summary, latency_ms=latency, warmup=measured.warmup,
        fusion_tuning=tuning,
        index={"build_seconds": {k: round(v, 4) for k, v in build_seconds.items()},
               "sources": dict(pipeline.build_sources),
               "build_seconds_total": round(build_total, 4), "bytes": index_bytes},
        peak_rss_mb=round(peak_rss_mb(), 1), cache=cache.events,
        embeddings=dict(embedder.stats) if embedder is not None else None,
        reranker=_part_stats(cfg.get("reranker"), parts.reranker),
        expander=_part_stats(cfg.get("expander"), parts.expander),
        service=_part_stats(cfg.retriever, pipeline if parts.foreign is not None else None))


def _hygiene_warnings(cfg: DictConfig, hygiene) -> list[str]:
    """Loud warnings when queries leak into their gold text."""
    threshold = float(cfg.get("hygiene", {}).get("self_retrieval_warn", 0.05))
    out: list[str] = []
    if hygiene.self_retrieval_share > threshold:
        out.append(f"SELF-RETRIEVAL: {hygiene.self_retrieval_share:.1%} of queries appear verbatim "
                   f"in their gold text (threshold {threshold:.0%}); scores are inflated")
    elif hygiene.leak_share > threshold:
        out.append(f"QUERY LEAK: {hygiene.leak_share:.1%} of queries share long runs of lines or "
                   f"characters with their gold text (threshold {threshold:.0%}); scores are inflated")
    for w in out:
        print(f"WARNING: {w}", flush=True)
    return out


@dataclass
class Parts:
    pipeline: Any
    embedder: Any = None
    reranker: Any = None
    expander: Any = None
    foreign: ForeignChunks | None = None


def _build_parts(cfg: DictConfig, overfetch: int, indexed) -> Parts:
    """Instantiate legs, fusion, embedder, reranker and expander, or the HTTP service adapter."""
    legs = {name: instantiate_part(cfg.retriever.get(name)) for name in ("sparse", "dense")
            if cfg.retriever.get(name)}
    fusion = instantiate_part(cfg.fusion)
    depths = Depths(**{name: v + overfetch if name != "k" else v for name, v in plain(cfg.depths).items()})
    reranker, expander = instantiate_part(cfg.get("reranker")), instantiate_part(cfg.get("expander"))
    embedder = None
    if any(ix.input == "vector" for n, ix in legs.items() if fusion.weight(n) != 0) \
            or getattr(reranker, "needs_embedder", False):
        embedder = instantiate_part(cfg.embedder)
    if cfg.retriever.get("service"):  # a running search service, scored as a black box
        if reranker is not None or expander is not None:
            raise UserError("retriever=http scores a running service as it is: set reranker=none and "
                            "expander=none (the service reranks and expands by itself)")
        return Parts(pipeline=instantiate_part(cfg.retriever.service), embedder=embedder,
                     foreign=ForeignChunks(indexed.files))
    pipeline = Pipeline(legs=legs, fusion=fusion, embedder=embedder, depths=depths, reranker=reranker,
                        expander=expander)
    return Parts(pipeline=pipeline, embedder=embedder, reranker=reranker, expander=expander)


def _part_stats(node, part) -> dict | None:
    """A reranker's, expander's or service's name and counters (timeouts, errors, fallbacks...)."""
    if part is None:
        return None
    return {"name": (node.get("name") if node is not None else None) or type(part).__name__,
            "stats": json.loads(json.dumps(getattr(part, "stats", {}), default=str))}


def _index_store(cfg: DictConfig, pipeline: Pipeline, chunks) -> CachedIndexStore:
    """The content-addressed index cache for this run's legs."""
    identity = pipeline.embedder.identity if pipeline.embedder is not None else None
    keys = leg_keys({n: plain(cfg.retriever[n]) for n in pipeline.legs}, chunks, identity,
                    {n: ix.input for n, ix in pipeline.legs.items()})
    return CachedIndexStore(cfg.paths.cache, keys)


def _index_bytes(pipeline: Pipeline) -> dict[str, int]:
    """Bytes each leg takes when saved to disk."""
    out: dict[str, int] = {}
    tmp = Path(tempfile.mkdtemp(prefix="hermes-index-"))
    try:
        for name, ix in pipeline.legs.items():
            ix.save(tmp / name)
            out[name] = dir_bytes(tmp / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out
