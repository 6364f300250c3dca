"""A set over many snapshots run a batch of snapshots at a time (``snapshot_batch`` in conf/config.yaml).

Each batch's snapshots are loaded from their sources, masked, checked, chunked, looked up, searched and
scored per query; only per-query results (rankings, scores, qrels, hygiene flags) and a few numbers per
file (for the corpus summary, fingerprint and chunk sizes) outlive the batch. What the batches share is
what a repository's snapshots share: each blob's text read once (one reader per repository), the chunk
texts and the files already seen (reuse counts), the tokenizer memos. So peak memory follows a batch and
the history's distinct texts, not every file of every snapshot at once (Ye Tomcat: 1,047 snapshots, 1.6M
files). Every value is a query's own or a sum, so the run files and the record equal those of the set run
at once (tests/hermes_eval/stages/test_batched.py). A source no query searches (a snapshot whose queries
were all skipped, in a set made before the builder left those out: querysets/snapshot_set.py) rides along
in a batch: its files count in the corpus summary, fingerprint and chunk sizes as they do at once, and it is
neither indexed nor searched. Sets this cannot split (a query whose snapshot has no source, a service,
shards, dedupe, a generated query set) run at once.
"""
from __future__ import annotations

import hashlib
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from hermes_eval.cache.chunk_store import ChunkStore
from hermes_eval.cache.count_store import CountStore
from hermes_eval.cache.content import Cache, key_of
from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Corpus, QuerySet, UserError
from hermes_eval.core.heap import trim_heap_if_large
from hermes_eval.core.measured import Measured
from hermes_eval.core.queryset import scope_finder
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.corpus.scan import resolve_sources, scan_sources, source_prefix
from hermes_eval.corpus.sources import Source
from hermes_eval.judge.budget import token_counts, token_stats_key, token_summary
from hermes_eval.judge.percentiles import percentiles
from hermes_eval.judge.hygiene import Hygiene, combined, token_counter
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.judge.score import Scores, joined, score_queries, summarized
from hermes_eval.querysets.integrity import validate_qids, validate_queries
from hermes_eval.querysets.store import load_queryset
from hermes_eval.stages.build import Built, SnapshotShared
from hermes_eval.stages.judge import hygiene_of, leak_warnings
from hermes_eval.stages.prepare import chunker_identity, chunks_key_of
from hermes_eval.stages.scoped import _add, in_query_order, search_snapshots
from hermes_eval.stages.snapshots import Seen, chunk_by_content, scopes_of
from retrievers.leg_text import add_totals, cut_totals, header_removed
from hermes_eval.stages.file_scoring import declared_files

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchedRun:
    """What the chain records of a set run in batches (what :func:`~hermes_eval.stages.chain._run` has
    from its stages)."""

    queryset: QuerySet
    corpus_info: dict
    fingerprint: str  # of the indexed (masked) corpus
    languages: frozenset[str]  # of the indexed files
    hygiene: Hygiene
    warnings: tuple[str, ...]
    measured: Measured
    built: Built
    scores: Scores
    snapshots: dict
    snapshot_work: dict
    chunk_stats: dict


@dataclass
class Tally:
    """Per snapshot, what the corpus summary and fingerprints need of its files: their paths inside the
    snapshot (interned: a repository's snapshots share them) and texts (shared with the blob readers);
    counts by language; skipped files. Two pointers per file instead of a file record."""

    files: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...] | None]] = field(default_factory=dict)
    langs: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)
    n_lines: dict[str, int] = field(default_factory=dict)  # text -> lines (texts are alive in the readers)

    def add(self, corpus: Corpus, indexed: Corpus, scopes: Sequence[str]) -> None:
        find = scope_finder(tuple(scopes))
        parts: dict[str, tuple[list[str], list[str], list[str]]] = {s: ([], [], []) for s in scopes}
        for f, g in zip(corpus.files, indexed.files):
            scope = find(f.path)
            rels, texts, masked = parts[scope]
            rels.append(sys.intern(f.path[len(scope):]))
            texts.append(f.text)
            masked.append(g.text)
            self.langs[f.language] = self.langs.get(f.language, 0) + 1
            n = self.n_lines.get(f.text)
            if n is None:
                n = self.n_lines[f.text] = f.n_lines
            self.lines[f.language] = self.lines.get(f.language, 0) + n
        for scope, (rels, texts, masked) in parts.items():
            same = all(a is b for a, b in zip(texts, masked))
            self.files[scope] = (tuple(rels), tuple(texts), None if same else tuple(masked))
        for k, v in corpus.skipped.items():
            self.skipped[k] = self.skipped.get(k, 0) + v
        self.fingerprints.update(corpus.fingerprints)

    def fingerprint(self, masked: bool) -> str:
        """:attr:`Corpus.fingerprint` of the whole corpus (``masked``: as indexed): sorted by path, which is
        by snapshot prefix, then by path inside it."""
        h = hashlib.sha256()
        for scope in sorted(self.files):
            rels, texts, masked_texts = self.files[scope]
            for rel, text in zip(rels, masked_texts if masked and masked_texts is not None else texts):
                h.update((scope + rel).encode())
                h.update(b"\0")
                h.update(text.encode("utf-8", "surrogatepass"))
                h.update(b"\0")
        return h.hexdigest()[:16]

    def summary(self, name: str, sources: Sequence[str]) -> dict:
        """:meth:`Corpus.summary` of the whole corpus."""
        out = {"name": name, "sources": list(sources), "files": sum(len(v[0]) for v in self.files.values()),
               "lines": sum(self.lines.values()), "languages": dict(sorted(self.langs.items())),
               "lines_by_language": dict(sorted(self.lines.items())),
               "skipped": dict(sorted(self.skipped.items())), "fingerprint": self.fingerprint(masked=False)}
        if self.fingerprints:
            out["source_fingerprints"] = dict(sorted(self.fingerprints.items()))
        return out


@dataclass(frozen=True)
class Plan:
    """How a set runs in batches: its snapshots in batches of ``snapshot_batch`` in the order the queries list
    them, each snapshot's sources, and per batch the snapshots no query searches loaded along with it."""

    queryset: QuerySet
    batches: list[list[str]]
    by_scope: dict[str, list[Source]]
    riders: list[list[str]]  # per batch: unsearched snapshots scanned with it (never indexed)


def batches_of(s: RunSettings) -> Plan | None:
    """The set's :class:`Plan`, or None when the set runs at once: batching is off, the set has one batch or
    no snapshots, a query's snapshot has no source or its gold lies outside its snapshot, or a part needs the
    whole corpus (service, shards, dedupe, a query set generated from the corpus). Sources no query searches
    ride along, spread over the batches (the k-th with batch k modulo their number)."""
    if s.snapshot_batch <= 0 or s.service is not None or s.shard is not None or s.dedupe or s.fusion_tuning:
        return None
    folder = s.queryset.folder
    if s.queryset.generator is not None or not ((folder / "queries.parquet").exists()
                                                or (folder / "queries.jsonl").exists()):
        return None
    qs = load_queryset(folder)
    scopes = scopes_of(qs.queries)
    if "" in scopes or len(scopes) <= s.snapshot_batch:
        return None
    find = scope_finder(tuple(scopes))
    for q in qs.queries:
        own = str(q.meta.get("scope"))
        if any(find(sp.path) != own for sp in (*q.gold, *q.exclude)):
            log.info("query %s has spans outside its snapshot %s: the set runs at once", q.qid, own)
            return None
    resolved = resolve_sources(s.corpus.sources, s.paths.cache)
    by_scope: dict[str, list[Source]] = {}
    for src in resolved:
        by_scope.setdefault(source_prefix(src, len(resolved)), []).append(src)
    if not set(scopes) <= set(by_scope):
        log.info("a query's snapshot is no corpus source: the set runs at once")
        return None
    size = s.snapshot_batch
    batches = [scopes[i:i + size] for i in range(0, len(scopes), size)]
    searched = set(scopes)
    unsearched = [scope for scope in by_scope if scope not in searched]
    riders: list[list[str]] = [unsearched[k::len(batches)] for k in range(len(batches))]
    if unsearched:
        log.info("%d corpus sources no query searches: scanned with the batches, never indexed", len(unsearched))
    return Plan(qs, batches, by_scope, riders)


def run_batched(s: RunSettings, cache: Cache) -> BatchedRun | None:
    """The set of ``s`` searched and scored a batch of snapshots at a time; None when it runs at once."""
    planned = batches_of(s)
    if planned is None:
        return None
    qs, batches, by_scope = planned.queryset, planned.batches, planned.by_scope
    label = f"query set {s.queryset.name!r}"
    validate_qids(qs, label)
    qids = [q.qid for q in qs.queries]
    overfetch = s.exclude_overfetch if any(q.exclude for q in qs.queries) else 0
    n_sources = sum(len(v) for v in by_scope.values())
    chunker, chunker_key = s.chunker.build(), chunker_identity(s)
    counter = token_counter(s.hygiene.tokenizer_model)
    tally, seen, counted = Tally(), Seen(), {}
    sizes: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # per snapshot: chunk lines, chars, tokens
    cuts: dict[str, int] = {}  # shared-header cuts (retrievers/leg_text.py), summed over the batches
    hygiene: list[Hygiene] = []
    measured: list[Measured] = []
    scores: list[Scores] = []
    snapshots: dict = {}
    work: dict = {}
    built: Built | None = None
    languages: set[str] = set()
    embedded = {"computed": 0, "cached": 0, "encode_seconds": 0.0}
    blobs: dict = {}
    chunk_store = ChunkStore(cache.root / "chunks" / "files.sqlite")
    count_store = CountStore(Path(s.paths.cache) / "counts" / "terms.sqlite") if s.index_cache else None
    shared = SnapshotShared(count_store=count_store)
    try:
        for batch, riders in zip(batches, planned.riders):
            mine, loaded = set(batch), [*batch, *riders]
            sub = QuerySet(qs.name, tuple(q for q in qs.queries if str(q.meta.get("scope")) in mine), qs.manifest)
            corpus = scan_sources([src for scope in loaded for src in by_scope[scope]], s.corpus.name,
                                  s.corpus.max_file_bytes, list(s.corpus.languages) if s.corpus.languages else None,
                                  s.corpus.exclude, n_sources=n_sources, blobs=blobs)
            indexed = mask_corpus(corpus, sub.masks)
            validate_queries(sub, indexed, label)
            tally.add(corpus, indexed, loaded)
            languages.update(f.language for f in indexed.files)
            chunks, reuse = chunk_by_content(chunker, indexed, batch, chunk_store, chunker_key, s.chunk_workers, seen)
            if not chunks:
                raise UserError(f"chunker {s.chunker_name!r} produced no chunks for snapshots {batch[0]}..{batch[-1]} "
                                f"of corpus {s.corpus.name!r}")
            _sizes(chunks, loaded, counted, sizes)  # a rider's chunks under its own snapshot, as at once
            cuts = add_totals(cuts, cut_totals(chunks))
            lookup = ChunkLookup(chunks)
            hygiene.append(hygiene_of(sub, indexed, s.hygiene, lookup, None, counter))
            found, part, facts, did = search_snapshots(s, indexed, chunks, list(sub.queries), lookup, reuse, overfetch,
                                                       shared)
            measured.append(found)
            scores.append(score_queries(sub.queries, dict(found.rankings), lookup, lines=False,
                                        files=declared_files(s, found, lookup)))
            snapshots.update(facts)
            for w in did.values():
                w["position"] += len(work)
            work.update(did)
            if part.parts.embedder is not None:
                for key in embedded:
                    embedded[key] += part.parts.embedder.stats.get(key) or 0
            built = part if built is None else _add(built, part)
            del sub, corpus, indexed, chunks, reuse, lookup, found, part, facts, did
            trim_heap_if_large()  # the batch's files, chunks and indexes go back to the system before the next
    finally:
        chunk_store.close()
        shared.close()
        if count_store is not None:
            count_store.close()
        for reader in blobs.values():
            reader.close()
    if built.parts.embedder is not None:
        built.parts.embedder.stats.update(embedded)
    corpus_info = tally.summary(s.corpus.name, s.corpus.sources)
    want = qs.manifest.get("corpus_fingerprint")
    if want and want != corpus_info["fingerprint"]:
        raise UserError(f"query set {s.queryset.folder} was built from corpus fingerprint {want} but corpus "
                        f"{s.corpus.name!r} is {corpus_info['fingerprint']}: regenerate it with `hermes-eval "
                        f"datasets generate --force` and this run's queryset and corpus overrides")
    fingerprint = tally.fingerprint(masked=True)
    checked = combined(hygiene, qids)
    order = [scope for batch in batches for scope in batch]
    return BatchedRun(queryset=qs, corpus_info=corpus_info, fingerprint=fingerprint, languages=frozenset(languages),
                      hygiene=checked, warnings=leak_warnings(checked, s.hygiene.self_retrieval_warn),
                      measured=in_query_order(measured, qids), built=built,
                      scores=summarized(joined(scores, qs.queries), qids, s.seed, s.bootstrap),
                      snapshots=snapshots, snapshot_work=work,
                      chunk_stats={**_chunk_stats(sizes, cache, chunks_key_of(s, fingerprint, order)),
                                   **header_removed(cuts)})


def _sizes(chunks, scopes: Sequence[str], counted: dict, out: dict) -> None:
    """Each snapshot's chunk sizes (lines, characters, tokens) into ``out``, in chunk order."""
    find = scope_finder(tuple(scopes))
    tokens = token_counts(chunks, counted)
    rows: dict[str, list[tuple[int, int, int]]] = {}
    for c, n in zip(chunks, tokens):
        rows.setdefault(find(c.path), []).append((c.n_lines, len(c.text), n))
    for scope, got in rows.items():
        arr = np.asarray(got, dtype=np.int64).reshape(-1, 3)
        out[scope] = (arr[:, 0], arr[:, 1], arr[:, 2])


def _chunk_stats(sizes: dict, cache: Cache, chunks_key: str) -> dict:
    """:func:`~hermes_eval.stages.chain._chunk_stats` from the sizes of every snapshot's chunks, in the
    order of the whole set's chunks (by path: by snapshot prefix first)."""
    scopes = sorted(sizes)
    lines, chars, tokens = (np.concatenate([sizes[sc][i] for sc in scopes]) for i in range(3))
    key = key_of(chunks_key, token_stats_key())
    return {"count": int(len(lines)), "lines_mean": round(float(np.mean(lines)), 3),
            **dict(zip(("lines_p50", "lines_p95"), map(float, percentiles(lines, [50, 95])))),
            "chars_mean": round(float(np.mean(chars)), 1),
            **cache.get_or_compute("token-stats", key, lambda: token_summary(tokens.tolist()))}
