"""Scan sources into a Corpus: skip tooling folders, hidden, binary, non-UTF-8 and large files.

A UTF-8 byte-order mark is dropped on reading. A file reachable through a symlink inside the
root is indexed once, under its real path (``symlink_duplicate`` counts the links skipped); a
link whose target is outside the root is never followed."""
from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from hermes_eval.corpus import git_tree
from hermes_eval.corpus.languages import detect_language
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.corpus.sources import FORMS, Source, resolve
from hermes_eval.core.errors import UserError
from retrievers.progress import track

SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "venv", ".venv", "env", "build", "dist",
                       "__pycache__", ".mypy_cache", ".pytest_cache", ".tox", ".nox", "target",
                       "site-packages", ".eggs", ".idea", ".vscode"})
MAX_FILE_BYTES = 1_000_000
PREFETCH, PREFETCH_BYTES = 256, 8_000_000  # a git snapshot's blobs read per round trip, at most (raw bytes held)


def _walk(source: Source, skipped: dict[str, int]) -> list[tuple[str, Path]]:
    """(relative path, absolute path) pairs; links leaving the root are never followed."""
    out: list[tuple[str, Path]] = []
    if source.only is not None:
        for p in source.only:
            out.append((p.relative_to(source.root).as_posix(), p))
        return out
    links: list[tuple[str, Path, Path]] = []
    pruned = {source.root / rel for rel in source.skip}
    for dirpath, dirnames, filenames in os.walk(source.root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not _skip_dir(d, skipped) and Path(dirpath) / d not in pruned)
        for name in sorted(filenames):
            if name.startswith("."):
                skipped["hidden"] = skipped.get("hidden", 0) + 1
                continue
            p = Path(dirpath) / name
            rel = p.relative_to(source.root).as_posix()
            if p.is_symlink():
                target = p.resolve()
                if source.root.resolve() not in target.parents:
                    skipped["symlink_outside_root"] = skipped.get("symlink_outside_root", 0) + 1
                else:
                    links.append((rel, p, target))
                continue
            out.append((rel, p))
    return out + _dedupe_links(source.root.resolve(), links, {p.resolve() for _, p in out}, skipped)


def _dedupe_links(root: Path, links: list[tuple[str, Path, Path]], real: set[Path],
                  skipped: dict[str, int]) -> list[tuple[str, Path]]:
    """Links inside the root: one whose target is already scanned is a duplicate; of several
    links to a target that is not (it sits in a skipped folder), the first path is kept."""
    kept: list[tuple[str, Path]] = []
    for rel, p, target in links:
        why = "symlink_duplicate" if target in real else None if target.is_file() else "broken_symlink"
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        real.add(target)
        kept.append((rel, p))
    return kept


def _skip_dir(name: str, skipped: dict[str, int]) -> bool:
    if name in SKIP_DIRS or name.startswith(".") or name.endswith((".egg-info", ".dist-info")):
        skipped["skipped_dir"] = skipped.get("skipped_dir", 0) + 1
        return True
    return False


def read_text(path: Path, max_bytes: int) -> tuple[str | None, str | None]:
    """(text, None) or (None, reason it was skipped)."""
    try:
        if not path.is_file():
            return None, "not_a_file"
        if path.stat().st_size > max_bytes:
            return None, "too_large"
        data = path.read_bytes()
    except OSError:
        return None, "unreadable"
    return decode(data)


def decode(data: bytes) -> tuple[str | None, str | None]:
    """A file's bytes as text (BOM dropped, newlines normalized), or (None, why it is skipped)."""
    if b"\0" in data[:8192]:
        return None, "binary"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, "not_utf8"
    return text.replace("\r\n", "\n").replace("\r", "\n"), None


def _resolved(spec: str, cache: Path, tracker) -> Source:
    src = resolve(str(spec), cache)
    tracker.update()
    return src


def excluded(path: str, patterns: Sequence[str]) -> bool:
    """Whether the corpus path matches one of the ``corpus.exclude`` globs (fnmatch: ``*``
    crosses folders, so ``*.min.js`` matches at any depth)."""
    return any(fnmatch.fnmatchcase(path, p) for p in patterns)


def load_corpus(sources: Sequence[str], name: str = "corpus", cache_dir: str | Path = ".cache",
                max_file_bytes: int = MAX_FILE_BYTES, languages: Sequence[str] | None = None,
                exclude: Sequence[str] = ()) -> Corpus:
    """Resolve and scan ``sources``; with several, folder paths get their folder name as prefix.
    Files whose corpus path matches an ``exclude`` glob are skipped (counted as ``excluded``)."""
    if isinstance(sources, str):
        sources = [sources]
    return scan_sources(resolve_sources(sources, cache_dir), name, max_file_bytes, languages, exclude)


def resolve_sources(sources: Sequence[str], cache_dir: str | Path = ".cache") -> list[Source]:
    """Each source spec resolved (fetched once into the cache)."""
    if not sources:
        raise UserError(f"corpus.sources is empty: give at least one source ({FORMS})")
    cache = Path(cache_dir)
    from hermes_eval.corpus.git_source import prime

    prime([str(s) for s in sources])
    with track("corpus sources", len(sources), "sources") as tracker:
        return [_resolved(spec, cache, tracker) for spec in sources]


def source_prefix(src: Source, n_sources: int) -> str:
    """The prefix of ``src``'s paths in a corpus of ``n_sources`` sources."""
    return src.prefix if src.prefix is not None else (f"{src.repo}/" if n_sources > 1 else "")


def scan_sources(resolved: Sequence[Source], name: str = "corpus", max_file_bytes: int = MAX_FILE_BYTES,
                 languages: Sequence[str] | None = None, exclude: Sequence[str] = (),
                 n_sources: int | None = None, blobs: dict | None = None) -> Corpus:
    """The corpus of ``resolved`` sources; ``n_sources`` (default: their number) decides their prefixes, so
    a part of a larger source list keeps the paths it has there; ``blobs`` (the caller's, closed by it):
    one reader per repository shared with other scans, each blob read and decoded once over all of them."""
    scan = _Scan(n_sources or len(resolved), max_file_bytes, set(languages) if languages else None, exclude)
    if blobs is not None:
        scan.blobs = blobs
    try:
        with track("corpus files", len(resolved), "sources") as tracker:
            for src in resolved:
                scan.add(src)
                tracker.update()
    finally:
        if blobs is None:
            for reader in scan.blobs.values():
                reader.close()
    if not scan.files:
        raise UserError(f"corpus {name!r} has no indexable files in {[s.spec for s in resolved]}: point "
                        f"corpus.sources at source code")
    return Corpus(name=name, files=tuple(scan.files[p] for p in sorted(scan.files)), skipped=scan.skipped,
                  sources=tuple(s.spec for s in resolved), fingerprints=scan.fingerprints)


@dataclass
class _Scan:
    """What one ``load_corpus`` call gathers and the rules it applies to every source."""

    n_sources: int
    max_file_bytes: int
    wanted: set[str] | None
    exclude: Sequence[str]
    files: dict[str, CorpusFile] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)
    blobs: dict[Path, git_tree.Blobs] = field(default_factory=dict)  # one reader per repository

    def add(self, src: Source) -> None:
        """Every kept file of ``src`` into ``files``."""
        skipped = self.skipped
        if src.fingerprint:
            self.fingerprints[src.spec] = src.fingerprint
        prefix = source_prefix(src, self.n_sources)
        wanted: list[tuple[str, str, Callable[[], tuple[str | None, str | None]], git_tree.Entry | None]] = []
        for rel, read, blob in _entries(src, skipped, self.max_file_bytes, self.blobs):
            lang = detect_language(rel)
            if lang is None or (self.wanted is not None and lang not in self.wanted):
                skipped["not_source"] = skipped.get("not_source", 0) + 1
                continue
            path = prefix + rel
            if self.exclude and excluded(path, self.exclude):
                skipped["excluded"] = skipped.get("excluded", 0) + 1
                continue
            wanted.append((path, lang, read, blob))
        ahead = 0  # wanted[:ahead] are read ahead: a git snapshot's blobs in round trips of bounded size
        for i, (path, lang, read, _) in enumerate(wanted):
            if i == ahead and src.commit is not None:
                ahead = _next_batch(wanted, i)
                self.blobs[src.root].prefetch([b.sha for *_, b in wanted[i:ahead] if b is not None])
            text, why = read()
            if why:
                skipped[why] = skipped.get(why, 0) + 1
                continue
            if path in self.files:
                raise UserError(f"corpus sources collide at {path!r}: list each source once in corpus.sources")
            self.files[path] = CorpusFile(path=path, repo=src.repo, language=lang, text=text)


def _next_batch(wanted: list, start: int) -> int:
    """The end of the read-ahead batch from ``start``: at most :data:`PREFETCH` blobs and, past the first,
    :data:`PREFETCH_BYTES` bytes (the raw bytes held before they are decoded)."""
    end, size = start, 0
    while end < len(wanted) and end - start < PREFETCH:
        blob = wanted[end][3]
        size += blob.size if blob is not None else 0
        if size > PREFETCH_BYTES and end > start:
            break
        end += 1
    return end


def _entries(src: Source, skipped: dict[str, int], max_bytes: int, blobs: dict[Path, git_tree.Blobs]
             ) -> list[tuple[str, Callable[[], tuple[str | None, str | None]], git_tree.Entry | None]]:
    """(relative path, a reader of its text, the blob a git snapshot reads) for each file of ``src``:
    from the folder, or straight from the repository for a git snapshot (its blobs read through the
    repository's shared reader; None for a blob not read: missing or too large, or a folder's file)."""
    if src.commit is None:
        return [(rel, lambda p=p: read_text(p, max_bytes), None) for rel, p in _walk(src, skipped)]
    if src.root not in blobs:  # one reader per repository, built once
        blobs[src.root] = git_tree.Blobs(src.root)
    reader = blobs[src.root]
    entries = git_tree.tree(src.root, src.commit, reader.objects)
    kept, links = git_tree.walk(entries, lambda d: _skip_dir(d, skipped), skipped)
    kept = kept + git_tree.resolve_links(links, kept, entries, reader, skipped)

    def read(e: git_tree.Entry) -> tuple[str | None, str | None]:
        if e.size == git_tree.MISSING:  # a mirror trimmed of its largest blobs: counted, not fatal
            return None, "blob_missing"
        return (None, "too_large") if e.size > max_bytes else reader.text(e.sha, decode)

    return [(e.path, lambda e=e: read(e), None if e.size == git_tree.MISSING or e.size > max_bytes else e)
            for e in kept]
