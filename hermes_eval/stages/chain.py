"""One run: prepare -> build -> search -> judge -> write, resumed by config hash and part identities
(:mod:`~hermes_eval.stages.reuse`), failures recorded.

record.json is written last and atomically, so a record means a finished run; a run that fails at
any stage still writes a record with ``status: failed`` and the one-line error.
"""
from __future__ import annotations

import json
import logging
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection

import numpy as np

from hermes_eval.cache.content import Cache, key_of
from hermes_eval.cache.indexes import chunk_set_hash
from hermes_eval.config.compose import offline_defaults
from hermes_eval.config.identity import slug
from hermes_eval.config.settings import RunSettings
from hermes_eval.core.env_faults import EnvFault, classify
from hermes_eval.core.errors import one_line
from hermes_eval.core.failpoints import failpoint
from hermes_eval.core import Query, QuerySet
from hermes_eval.core.measured import Measured
from hermes_eval.core.version import __version__
from hermes_eval.judge.hygiene import Hygiene
from hermes_eval.judge.score import Scores
from hermes_eval.stages.build import Built
from hermes_eval.corpus.languages import gold_language
from hermes_eval.judge.budget import token_stats, token_stats_key
from hermes_eval.judge.percentiles import latency_summary, percentiles
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.judge.strata import NO_STRATUM, declared_strata, declared_values, stratum_means
from hermes_eval.querysets.integrity import validate_queries
from hermes_eval.record.checksums import damage, file_sums
from hermes_eval.core.heap import trim_heap_if_large
from hermes_eval.record.manifest import git_commit, machine, peak_rss_mb, reset_peak_rss, versions
from hermes_eval.record.rescore import rescore
from hermes_eval.record.run_lock import RunBusy, run_lock
from hermes_eval.record.write import write_record, write_run_files
from hermes_eval.stages.judge import check_queries, judge
from hermes_eval.stages.arm_share import active as sharing_active, kept
from hermes_eval.stages.batched import run_batched
from hermes_eval.stages.prepare import chunking_key, prepare, released
from hermes_eval.stages.reuse import changed_parts
from hermes_eval.stages.run_parts import run_part_identities
from hermes_eval.stages.run_modes import SearchInput, search
from hermes_eval.stages.run_record import RunRecord, embedding_stats, index_stats, part_stats
from hermes_eval.stages.shard_run import search_shard
from hermes_eval.stages.shards import all_parts, read_part, write_part
from retrievers.chunkers.coverage import fallbacks
from retrievers.leg_text import cut_totals, header_removed
from hermes_eval.stages.file_scoring import declared_files

__all__ = ["RunOutcome", "execute", "find_record", "reusable"]

RECORD_SCHEMA = 1
log = logging.getLogger(__name__)


def find_record(runs_dir: Path, chash: str) -> Path | None:
    """An existing finished record with this config hash whose run files still match it (resume).
    A finished record whose files were edited, cut or removed is named in one line and not reused."""
    for rec in sorted(Path(runs_dir).glob(f"*-{chash}/record.json")):
        try:
            record = json.loads(rec.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(record, dict) or record.get("status") != "ok":
            continue
        problem = damage(rec.parent, record)
        if problem is None:
            return rec
        log.warning("%s: %s; running it again", rec.parent, problem)
    return None


def reusable(s: RunSettings) -> tuple[Path | None, str | None]:
    """(the finished record that stands for ``s``, None), or (None, why the finished record with its
    config hash does not: a part whose identity changed), or (None, None) when there is none."""
    existing = find_record(s.paths.runs, s.config_hash)
    if existing is None:
        return None, None
    try:
        recorded = json.loads(existing.read_text()).get("parts")
    except (OSError, ValueError):
        return None, None
    why = changed_parts(recorded, run_part_identities(s))
    return (existing, None) if why is None else (None, why)


@dataclass
class RunOutcome:
    """What one job did: ``status`` ok, failed or busy (another process holds the run);
    ``record_written`` is False when not even a failure record fit on the disk; ``rerun``: why a finished
    record with the same config hash was not reused (a part changed)."""

    status: str
    run_dir: Path
    record: dict
    skipped: bool = False
    record_written: bool = True
    rerun: str | None = None


def execute(s: RunSettings) -> RunOutcome:
    """Run ``s`` unless a finished record with its hash exists; failures become records. The run
    folder's writer lock is held from before any work until the record is written."""
    offline_defaults()
    why = None
    if not s.rerun:
        existing, why = reusable(s)
        if existing is not None:
            return RunOutcome("ok", existing.parent, json.loads(existing.read_text()), skipped=True)
    run_dir = s.paths.runs / s.run_name
    base = _identity(s)
    if why is not None:
        base["rerun"] = why
    if s.shard is not None:
        return _execute_shard(s, run_dir, base)
    try:
        with run_lock(run_dir, s.busy_run):
            if not s.rerun:
                existing, why = reusable(s)
                if existing is not None:
                    return RunOutcome("ok", existing.parent, json.loads(existing.read_text()), skipped=True)
            outcome = _execute_locked(s, run_dir, base)
            outcome.rerun = why
            return outcome
    except RunBusy as busy:
        holder = busy.holder.__dict__ if busy.holder else None
        return RunOutcome("busy", run_dir, dict(base, status="busy", error=str(busy), holder=holder), skipped=True)
    except OSError as exc:  # the folder or its lock could not be made: nothing else was done
        fault = classify(exc)
        if fault is None:
            raise
        return RunOutcome("failed", run_dir, _failed(base, fault.message(), fault), record_written=False)


def _failed(base: dict, error: str, fault: EnvFault | None, trace: str | None = None) -> dict:
    record = dict(base, status="failed", error=error, finished_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    if fault is not None:
        record["fault"] = fault.to_dict()
    if trace:
        record["traceback"] = trace
    return record


def _execute_shard(s: RunSettings, run_dir: Path, base: dict) -> RunOutcome:
    """Search this shard's snapshots and write its part (unless it is there); the job that finds every
    part present merges them into the run's record under the run folder's writer lock."""
    i, n = s.shard
    label = dict(base, shard=f"{i}/{n}")
    if read_part(run_dir, s.shard) is None:
        started = time.time()
        try:
            part = search_shard(s)
        except Exception as exc:  # noqa: BLE001 - a failed shard is recorded like a failed run
            fault = classify(exc)
            record = _failed(label, fault.message() if fault else one_line(exc), fault,
                             traceback.format_exc(limit=8)[-4000:])
            return RunOutcome("failed", run_dir, record, record_written=False)
        part.wall_seconds = round(time.time() - started, 3)
        write_part(run_dir, part)
    parts = all_parts(run_dir, n)
    if parts is None:
        return RunOutcome("shard", run_dir, dict(label, status="shard"), skipped=True)
    try:
        with run_lock(run_dir, "skip"):  # two last shards at once: one merges, the other finds it busy
            if (existing := reusable(s)[0]) is not None:
                return RunOutcome("ok", existing.parent, json.loads(existing.read_text()), skipped=True)
            return _execute_locked(s, run_dir, base, parts)
    except RunBusy:
        return RunOutcome("shard", run_dir, dict(label, status="shard"), skipped=True)


def _execute_locked(s: RunSettings, run_dir: Path, base: dict, parts: list | None = None) -> RunOutcome:
    failpoint("run.locked")
    started, fault = time.time(), None
    try:
        record = _run(s, run_dir, base, parts)
    except Exception as exc:  # noqa: BLE001 - a failed run is recorded, never lost
        fault = classify(exc)
        record = _failed(base, fault.message() if fault else one_line(exc), fault,
                         traceback.format_exc(limit=8)[-4000:])
    record["wall_seconds"] = round(time.time() - started, 3)
    record["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        write_record(run_dir, record)
    except OSError as exc:
        written = classify(exc)
        if written is None:
            raise
        if fault is not None:  # the run failed for this reason already: say that one, not its echo
            error = f"{record['error']} (no failure record either)"
        else:
            fault, error = written, f"{written.message()} (the run finished; its record could not be written)"
        record = _failed(base, error, fault, record.get("traceback"))
        return RunOutcome("failed", run_dir, record, record_written=False)
    failpoint("run.recorded")
    return RunOutcome(record["status"], run_dir, record)


def _identity(s: RunSettings) -> dict:
    """What the record says about the run before it runs: config, hash, its parts' identities
    (:func:`~hermes_eval.stages.run_parts.run_part_identities`), where and with what."""
    return {"schema": RECORD_SCHEMA, "config_hash": s.config_hash, "config": s.config, "system": s.label,
            "chunker": s.chunker_name, "queryset": s.queryset.name, "corpus": s.corpus.name, "seed": s.seed,
            "parts": run_part_identities(s), "versions": versions(), "machine": machine(), "git_commit": git_commit(),
            "hermes_eval_version": __version__, "experiment": s.experiment}


def _run(s: RunSettings, run_dir: Path, base: dict, shard_parts: list | None = None) -> dict:
    """One run; with ``shard_parts`` (a sharded run's), their searches are merged instead of searching
    (the modes: stages/run_modes.py)."""
    rss_scope = reset_peak_rss()  # this job's own peak, not an earlier job's in the same process
    cache = Cache(s.paths.cache)
    if shard_parts is None and (b := run_batched(s, cache)) is not None:  # a snapshot set, a batch at a time
        cache.events.extend(b.built.events)
        return _finished(s, run_dir, base, cache, rss_scope, Finished(
            queries=list(b.queryset.queries), measured=b.measured, scores=b.scores, hygiene=b.hygiene,
            warnings=list(b.warnings), corpus_info=b.corpus_info, fingerprint=b.fingerprint, queryset=b.queryset,
            languages_indexed=b.languages, built=b.built, chunk_stats=lambda: b.chunk_stats,
            snapshots=b.snapshots, snapshot_work=b.snapshot_work))
    prepared = prepare(s, cache)
    validate_queries(prepared.queryset, prepared.indexed, f"query set {s.queryset.name!r}")
    chunks, chunks_key = prepared.chunks, prepared.chunks_key
    # a service's foreign chunks are added to its lookup: such a run makes its own
    lookup = ChunkLookup(chunks) if s.service is not None else kept(
        "chunking", chunking_key(s), "lookup", lambda: ChunkLookup(chunks))
    before = check_queries(prepared.queryset, prepared.indexed, s.hygiene, lookup, cache)
    corpus_info, fingerprint = prepared.corpus.summary(), prepared.indexed.fingerprint
    languages_indexed = {f.language for f in prepared.indexed.files}
    # a snapshot set's texts, chunked and checked, go back to the system (unless kept for the sweep's
    # next arm: dropping them here would free nothing)
    if not sharing_active() and (light := released(prepared, s)) is not prepared:
        prepared = light
        trim_heap_if_large()
    warnings_ = list(before.warnings)

    # queries with `exclude` spans: every stage fetches this many more, dropped before scoring
    overfetch = s.exclude_overfetch if any(q.exclude for q in prepared.queryset.queries) else 0
    searched = search(SearchInput(s, prepared, chunks, lookup, overfetch, shard_parts))
    built, queries, measured = searched.built, searched.queries, searched.measured
    cache.events.extend(built.events)
    parts = built.parts
    if parts.foreign is not None and parts.foreign.ids:
        lookup = ChunkLookup(list(lookup.by_id.values()))
        warnings_.append(f"FOREIGN CHUNKS: the service returned {len(parts.foreign.ids)} spans that are not "
                         f"chunks of chunker {s.chunker_name!r}; they are judged by overlap, but chunk-level "
                         f"recall assumes that chunking: compare services by file level and line coverage")
    judged = judge(before, queries, measured.rankings, lookup, s.seed, s.bootstrap, declared_files(s, measured, lookup))
    return _finished(s, run_dir, base, cache, rss_scope, Finished(
        queries=queries, measured=measured, scores=judged.scores, hygiene=judged.hygiene, warnings=warnings_,
        corpus_info=corpus_info, fingerprint=fingerprint, queryset=prepared.queryset,
        languages_indexed=languages_indexed, built=built,
        chunk_stats=lambda: kept("chunking", chunking_key(s), "stats", lambda: _chunk_stats(chunks, cache, chunks_key)),
        fusion_tuning=searched.fusion_tuning, snapshots=searched.snapshots, snapshot_work=searched.snapshot_work,
        shards=searched.shards))


@dataclass(frozen=True)
class Finished:
    """What a run's stages leave for its files and record (however the run was split)."""

    queries: list[Query]
    measured: Measured
    scores: Scores
    hygiene: Hygiene
    warnings: list[str]
    corpus_info: dict
    fingerprint: str  # of the indexed corpus
    queryset: QuerySet
    languages_indexed: Collection[str]
    built: Built
    chunk_stats: Callable[[], dict]  # asked after the run files are written
    fusion_tuning: dict | None = None
    snapshots: dict | None = None
    snapshot_work: dict | None = None
    shards: dict | None = None


def _finished(s: RunSettings, run_dir: Path, base: dict, cache: Cache, rss_scope: str, f: Finished) -> dict:
    """The run files of ``f`` written, and its record."""
    queries, measured, scores, built = f.queries, f.measured, f.scores, f.built
    parts = built.parts
    languages = {q.qid: gold_language(span.path for span in q.gold) for q in queries}
    write_run_files(run_dir, slug(s.label) or "run", queries, measured, scores, f.hygiene, languages,
                    declared_values(queries, f.queryset.manifest.get("strata") or {}))
    rescored = rescore(run_dir, scores.per_query)  # the record must agree with its own run files
    files = file_sums(run_dir)  # so an edited or cut run file is caught when the record is read
    latency = {stage: latency_summary(v) for stage, v in sorted(measured.stage_ns.items())}
    latency["total"] = latency_summary(measured.total_ns)
    failpoint("run.files_written")
    chunk_stats = f.chunk_stats()
    return RunRecord(
        identity=base, warnings=f.warnings, corpus_info=f.corpus_info, indexed_fingerprint=f.fingerprint,
        queryset_info={"name": f.queryset.name, "n": len(queries), "manifest": f.queryset.manifest},
        hygiene=f.hygiene.to_dict(),
        chunks={**chunk_stats, "fallback": fallbacks(s.chunker.build(), f.languages_indexed)},
        legs=list(built.pipeline.legs), metrics=scores.summary, rescored=rescored, files=files,
        latency_ms=latency, warmup=measured.warmup,
        strata={"language": stratum_means(scores.per_query, languages),
                "repo": stratum_means(scores.per_query, {q.qid: q.repo or NO_STRATUM for q in queries}),
                **declared_strata(scores.per_query, queries, f.queryset.manifest.get("strata") or {})},
        fusion_tuning=f.fusion_tuning, index=index_stats(built), snapshots=f.snapshots,
        snapshot_work=f.snapshot_work, shards=f.shards,
        peak_rss_mb=round(peak_rss_mb(), 1), peak_rss_scope=rss_scope, cache=cache.events,
        embeddings=embedding_stats(parts.embedder),
        reranker=part_stats(s.reranker.name if s.reranker else None, parts.reranker),
        expander=part_stats(s.expander.name if s.expander else None, parts.expander),
        service=part_stats(s.retriever_name, built.pipeline if parts.foreign is not None else None),
    ).as_dict()


def _chunk_stats(chunks, cache: Cache, chunks_key: str = "") -> dict:
    """Chunk sizes in lines, characters and tokens; the token counts from the cache when this chunk set was
    counted before (by the same code): a re-run over SWE-bench's snapshots skips counting 880 MB again.
    The set is known by ``chunks_key`` (what it was made from) when given, else by hashing it."""
    sizes = [c.n_lines for c in chunks]
    key = key_of(chunks_key or chunk_set_hash(chunks), token_stats_key())
    return {"count": len(chunks), "lines_mean": round(float(np.mean(sizes)), 3),
            **dict(zip(("lines_p50", "lines_p95"), map(float, percentiles(sizes, [50, 95])))),
            "chars_mean": round(float(np.mean([len(c.text) for c in chunks])), 1),
            **cache.get_or_compute("token-stats", key, lambda: token_stats(chunks)), **header_removed(cut_totals(chunks))}


