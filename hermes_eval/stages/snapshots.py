"""Query sets over several snapshots of repositories (SWE-bench: one repository at many commits).

Each query carries ``meta.scope``, the path prefix of its snapshot (``NAME@COMMIT8/``); it is
searched in an index of that snapshot alone. Work is shared by content: a file whose text is the
same at an earlier snapshot (same path inside the repository) is not chunked again, and chunk
texts already embedded come from the embedding cache, so a later commit costs only what changed.
"""
from __future__ import annotations

import time

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from hermes_eval.core import Corpus, Query
from hermes_eval.core.corpus import CorpusFile
from hermes_eval.core.queryset import scope_finder
from retrievers.chunk import Chunk
from hermes_eval.cache.chunk_store import ChunkStore, from_rows, to_rows
from retrievers.digest import text_sha
from retrievers.identity.declare import PartId
from retrievers.chunkers.base import merged
from retrievers.progress import track


def scopes_of(queries: Sequence[Query]) -> list[str]:
    """The snapshot prefixes the queries use, in first-seen order ('' when unscoped)."""
    return list(dict.fromkeys(str(q.meta.get("scope") or "") for q in queries))


def chunk_by_content(chunker, indexed: Corpus, scopes: Sequence[str], store: ChunkStore | None = None,
                     chunker_key: str = "", workers: int = 1, seen: Seen | None = None) -> tuple[list[Chunk], dict]:
    """Chunks of every file, each (path inside its snapshot, text) chunked once (read from ``store`` when
    it holds that file under ``chunker_key``, written to it otherwise); and the reuse: per snapshot (in
    the order given), files and chunks taken from an earlier one versus made anew. Files the store lacks
    are chunked by ``workers`` processes when there are enough of them (the same chunks either way).
    ``seen``: what earlier calls over earlier snapshots of the same set saw (a set run in batches)."""
    memo: dict[tuple[str, str], list[Chunk]] = {}
    seen = seen if seen is not None else Seen()
    texts = seen.texts
    per: dict[str, dict[str, int]] = {}
    find = scope_finder(tuple(scopes))
    scope_of = {f.path: find(f.path) for f in indexed.files}  # asked once per file
    order = {s: i for i, s in enumerate(scopes)}  # snapshots in the order the queries list them
    files = sorted(indexed.files, key=lambda f: (order.get(scope_of[f.path], -1), f.path))
    pending: list[tuple[str, CorpusFile]] = []  # (path inside the snapshot, file) not chunked yet
    with track("chunking", len(files), "files") as tracker:
        for f in files:
            scope = scope_of[f.path]
            key = (f.path[len(scope):], f.text)  # the text itself: its hash is computed once and kept by the string
            if key not in memo:
                memo[key] = []
                pending.append((key[0], f))
            if len(pending) >= BATCH:
                _chunk_batch(chunker, pending, memo, texts, store, chunker_key, workers)
                pending = []
            tracker.update()
        _chunk_batch(chunker, pending, memo, texts, store, chunker_key, workers)
    done = seen.files
    by_scope: dict[str, dict[str, Chunk]] = {}  # per snapshot, chunk id -> chunk (a repeated id kept once)
    for f in files:
        scope = scope_of[f.path]
        key = (f.path[len(scope):], f.text)
        row = per.setdefault(scope, {"files": 0, "files_reused": 0, "chunks": 0, "chunks_reused": 0})
        reused = key in done
        done.add(key)
        row["files"] += 1
        row["files_reused"] += reused
        seen = by_scope.setdefault(scope, {})
        for c in memo[key]:
            cid = c.id
            if cid not in seen:  # a chunk of this file: its path is the file's own string, not a copy per chunk
                seen[cid] = _under(c, scope, f.path)
        row["chunks"] += len(memo[key])
        row["chunks_reused"] += len(memo[key]) if reused else 0
    chunks = sorted((c for part in by_scope.values() for c in merged(chunker, part.values())),
                    key=lambda c: (c.path, c.start, c.end))
    return chunks, per


@dataclass
class Seen:
    """What chunking saw of a set's earlier snapshots: (path inside the snapshot, text) of every file, and
    every chunk text (equal ones kept as one string). Holds texts, which a repository's snapshots share:
    it grows with the distinct files of its history, not with its snapshots."""

    files: set[tuple[str, str]] = field(default_factory=set)
    texts: dict[str, str] = field(default_factory=dict)


def _under(c: Chunk, scope: str, file_path: str) -> Chunk:
    """``c`` under ``scope``; when that is the path of the file it was cut from, with that file's path
    string (one string per file, kept by the corpus anyway, instead of one more per chunk)."""
    return c.under(scope) if file_path != scope + c.path else Chunk(
        file_path, c.start, c.end, c.text, c.language, c.symbol, c.meta)


BATCH = 500  # files looked up in (and written to) the chunk store at a time
MIN_PARALLEL = 64  # fewer files to chunk than this are chunked in this process (a worker costs ~1 s to start)
SERIAL_BUDGET_S = 0.5  # chunking that ends within this here never starts the workers


def _chunk_batch(chunker, pending: list[tuple[str, CorpusFile]], memo: dict, texts: dict[str, str],
                 store: ChunkStore | None, chunker_key: str, workers: int = 1) -> None:
    """Chunks of ``pending`` files into ``memo``: from the store, else chunked (by ``workers`` processes
    when enough are missing) and stored; equal chunk texts (a function unchanged in an edited file) are
    one string."""
    if not pending:
        return
    shas = [text_sha(f.text) for _, f in pending] if store is not None else []
    found = store.get(chunker_key, [(rel, sha) for (rel, _), sha in zip(pending, shas)]) if store else {}
    missing = [i for i, (rel, _) in enumerate(pending) if store is None or (rel, shas[i]) not in found]
    made = dict(zip(missing, chunk_files(chunker, [pending[i] for i in missing], workers)))
    fresh: dict[tuple[str, str], list] = {}
    for i, (rel, f) in enumerate(pending):
        if i not in made:
            chunks = from_rows(found[(rel, shas[i])], rel, f.text)
        else:
            chunks = made[i]
            if store is not None:
                fresh[(rel, shas[i])] = to_rows(chunks, f.text)
        # a chunk that is its whole file (whole-file chunking) takes the file's text, which the corpus holds
        memo[(rel, f.text)] = [c.under("", f.text if c.text == f.text else texts.setdefault(c.text, c.text))
                               for c in chunks]
    if fresh:
        store.put(chunker_key, fresh)


def chunk_files(chunker, files: Sequence[tuple[str, CorpusFile]], workers: int = 1) -> list[list[Chunk]]:
    """Each file's non-blank chunks, in order. Chunked here first; what is left after
    :data:`SERIAL_BUDGET_S`, when at least :data:`MIN_PARALLEL` files, goes to a pool of ``workers``
    processes (joblib's loky, kept alive between calls). Whole files or line windows of a small
    snapshot set chunk in milliseconds, while starting the pool cost a 193-snapshot BM25 run 1 s."""
    done: list[list[Chunk]] = []
    start = time.perf_counter()
    for rel, f in files:
        if workers > 1 and time.perf_counter() - start >= SERIAL_BUDGET_S:
            break
        done.append(_chunk_one(chunker, rel, f.text, f.language))
    rest = files[len(done):]
    if len(rest) < MIN_PARALLEL:
        return done + [_chunk_one(chunker, rel, f.text, f.language) for rel, f in rest]
    from joblib import Parallel, delayed

    step = -(-len(rest) // (workers * 4))  # a few tasks per worker: a slow file does not idle the rest
    parts = [[(rel, f.text, f.language) for rel, f in rest[i:i + step]] for i in range(0, len(rest), step)]
    pooled = Parallel(n_jobs=workers, backend="loky")(delayed(_chunk_part)(chunker, part) for part in parts)
    return done + [chunks for part in pooled for chunks in part]


def _chunk_part(chunker, part: list[tuple[str, str, str]]) -> list[list[Chunk]]:
    return [_chunk_one(chunker, rel, text, language) for rel, text, language in part]


def _chunk_one(chunker, rel: str, text: str, language: str) -> list[Chunk]:
    return [c for c in chunker.chunk(rel, text, language) if c.text.strip()]


ASSEMBLY = PartId("hermes_eval.stages.snapshots", 1)  # bump when chunks are assembled differently


@lru_cache(maxsize=1)
def assembly_key() -> str:
    """This module's identity: its declared version, and the chunks it assembles from two probe snapshots
    (the probe files at ``a@1/`` and, one file changed, at ``a@2/``) with a line chunker."""
    from retrievers.chunkers.lines import LineChunker
    from retrievers.identity.key import part_key
    from retrievers.identity.probe import probe_files

    files = [CorpusFile(f"a@1/{p}", "a", lang, text) for p, text, lang in probe_files()]
    files += [CorpusFile(f"a@2/{p}", "a", lang, text + ("\nchanged\n" if i == 0 else ""))
              for i, (p, text, lang) in enumerate(probe_files())]
    chunks, reuse = chunk_by_content(LineChunker(), Corpus("probe", tuple(files)), ["a@1/", "a@2/"])
    return part_key([ASSEMBLY], [[(c.id, c.text) for c in chunks], reuse])
