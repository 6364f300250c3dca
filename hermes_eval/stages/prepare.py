"""Stage 1, prepare: corpus -> indexed corpus (query sources masked) -> query set -> chunks."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hermes_eval.cache.content import Cache, key_of
from hermes_eval.config.settings import CorpusSettings, RunSettings
from hermes_eval.core import Corpus, QuerySet, UserError
from hermes_eval.core.corpus import CorpusFile
from hermes_eval.corpus.dedupe import dedupe
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.corpus.scan import load_corpus
from hermes_eval.querysets.obtain import obtain_queryset
from hermes_eval.stages.arm_share import kept
from retrievers.chunk import Chunk
from retrievers.chunkers.base import chunk_files
from retrievers.identity.key import Identity, config_identity
from retrievers.identity.names import named
from retrievers.chunkers.coverage import probe_chunks


@dataclass(frozen=True)
class Prepared:
    """What the later stages search and judge."""

    corpus: Corpus  # as scanned
    queryset: QuerySet
    indexed: Corpus  # the corpus with every query's source text masked: what gets indexed
    chunks: tuple[Chunk, ...] = ()
    reuse: dict | None = None  # snapshot query sets: per snapshot, files/chunks shared with earlier ones
    # what the chunks are a function of (the corpus as indexed, its snapshots, the chunker's config and
    # code): keys what is computed from the chunks alone without hashing millions of them
    chunks_key: str = ""


def open_corpus(c: CorpusSettings, cache_dir: Path) -> Corpus:
    """Scan the configured sources (fetched once into the cache)."""
    return load_corpus(list(c.sources), name=c.name, cache_dir=cache_dir, max_file_bytes=c.max_file_bytes,
                       languages=list(c.languages) if c.languages else None, exclude=c.exclude)


def prepare_queries(s: RunSettings, force: bool = False) -> Prepared:
    """Corpus, query set (generated when missing) and the masked corpus; no chunks."""
    corpus = open_corpus(s.corpus, s.paths.cache)
    qs = obtain_queryset(s.queryset, s.corpus.sources, corpus, s.paths.cache, force=force)
    indexed = mask_corpus(corpus, qs.masks)
    if s.dedupe:  # identical texts collapsed into one document, relevance carried over
        indexed, qs, _ = dedupe(indexed, qs)
    return Prepared(corpus=corpus, queryset=qs, indexed=indexed)


def chunk_corpus(s: RunSettings, indexed: Corpus, cache: Cache) -> tuple[Chunk, ...]:
    """The indexed corpus cut by the configured chunker, cached by corpus, chunker config and the
    chunker's identity (:func:`chunker_code`)."""
    chunker = s.chunker.build()
    chunks = cache.get_or_compute(
        "chunks", key_of(indexed.fingerprint, named(dict(s.chunker.node)), chunker_code(s, chunker)),
        lambda: chunk_files(chunker, [(f.path, f.text, f.language) for f in indexed.files]))
    if not chunks:
        raise UserError(f"chunker {s.chunker_name!r} produced no chunks for corpus {indexed.name!r}")
    return tuple(chunks)


def chunk_snapshots(s: RunSettings, indexed: Corpus, scopes: list[str], cache: Cache
                    ) -> tuple[tuple[Chunk, ...], dict]:
    """Chunks of a corpus of several snapshots, each distinct file chunked once, ever: the per-file chunk
    store (``<cache>/chunks/files.sqlite``, keyed by chunker config and code, path and text) serves later
    snapshots, arms and runs; and the reuse per snapshot."""
    from hermes_eval.cache.chunk_store import ChunkStore
    from hermes_eval.stages.snapshots import chunk_by_content

    key = chunker_identity(s)
    store = ChunkStore(cache.root / "chunks" / "files.sqlite")
    try:
        chunks, reuse = chunk_by_content(s.chunker.build(), indexed, scopes, store, key, s.chunk_workers)
    finally:
        store.close()
    if not chunks:
        raise UserError(f"chunker {s.chunker_name!r} produced no chunks for corpus {indexed.name!r}")
    return tuple(chunks), reuse


def chunker_identity(s: RunSettings) -> str:
    """The chunker's config and identity (:func:`chunker_code`)."""
    return key_of(named(dict(s.chunker.node)), chunker_code(s))


_CHUNKER_IDS: dict[str, Identity] = {}


def chunker_code_identity(s: RunSettings, chunker: Any = None) -> Identity:
    """The parts the chunker config names (declared names and versions, resource files, their libraries)
    and the chunks it makes of every probe file (:func:`~retrievers.chunkers.coverage.probe_chunks`;
    ``chunker``: the one already built from that config, else one is built)."""
    node = repr(dict(s.chunker.node))
    if node not in _CHUNKER_IDS:
        _CHUNKER_IDS[node] = config_identity(dict(s.chunker.node), lambda: probe_chunks(chunker or s.chunker.build()),
                                             memo="chunker")
    return _CHUNKER_IDS[node]


def chunker_code(s: RunSettings, chunker: Any = None) -> str:
    """:func:`chunker_code_identity`'s key: a refactor with equal chunks keeps it."""
    return chunker_code_identity(s, chunker).key


def corpus_key(s: RunSettings) -> tuple:
    """What :func:`prepare_queries` reads: arms with equal keys get the same corpus and query set."""
    return repr(s.corpus), repr(s.queryset), s.dedupe, repr(s.paths.cache), repr(s.paths.datasets)


def chunking_key(s: RunSettings) -> tuple:
    """What :func:`prepare` reads: arms with equal keys get the same chunks (and what derives from them)."""
    return corpus_key(s), repr(dict(s.chunker.node))


def prepare(s: RunSettings, cache: Cache) -> Prepared:
    """The whole prepare stage (a set over several snapshots shares chunking work by content). Within a
    sweep's :func:`~hermes_eval.stages.arm_share.sharing`, the next arm with the same corpus (and
    chunker) takes this one's instead of loading (and chunking) it again."""
    from hermes_eval.stages.snapshots import scopes_of

    p = kept("corpus", corpus_key(s), "prepared", lambda: prepare_queries(s))
    scopes = scopes_of(p.queryset.queries)
    if scopes != [""]:
        from hermes_eval.stages.judge import corpus_leaks_of

        def chunk() -> tuple[tuple[Chunk, ...], dict]:
            # the corpus-wide leak check first (cached; the check reads it back): its working set and the
            # chunks of every snapshot are never in memory at once
            corpus_leaks_of(p.queryset, p.indexed, s.hygiene, cache)
            return chunk_snapshots(s, p.indexed, scopes, cache)

        chunks, reuse = kept("chunking", chunking_key(s), "chunks", chunk)
        return Prepared(p.corpus, p.queryset, p.indexed, chunks, reuse, _chunks_key(s, p.indexed, scopes))
    chunks = kept("chunking", chunking_key(s), "chunks", lambda: chunk_corpus(s, p.indexed, cache))
    return Prepared(p.corpus, p.queryset, p.indexed, chunks, chunks_key=_chunks_key(s, p.indexed, scopes))


def _chunks_key(s: RunSettings, indexed: Corpus, scopes: list[str]) -> str:
    return chunks_key_of(s, indexed.fingerprint, scopes)


def chunks_key_of(s: RunSettings, fingerprint: str, scopes: list[str]) -> str:
    """What a set's chunks are a function of: the indexed corpus's fingerprint, its snapshots, the chunker."""
    from hermes_eval.stages import snapshots

    return key_of(fingerprint, scopes, chunker_identity(s), snapshots.assembly_key())


def released(p: Prepared, s: RunSettings) -> Prepared:
    """A snapshot set's ``p`` with its file texts dropped (paths, repositories and languages kept), once
    chunked and checked: the texts of every snapshot are needed no more (a service adapter, which judges
    the spans it returns against them, keeps them), so search and judging run without that memory.
    ``p`` itself when nothing is dropped."""
    if p.reuse is None or s.service is not None:
        return p

    def strip(c: Corpus) -> Corpus:
        return replace(c, files=tuple(CorpusFile(f.path, f.repo, f.language, "") for f in c.files))

    indexed = strip(p.indexed)
    return replace(p, indexed=indexed, corpus=indexed if p.corpus is p.indexed else strip(p.corpus))
