"""The one builder of a snapshot set: a corpus of several snapshots (``git:MIRROR@COMMIT``, or any corpus
source) in which each query searches its own (``meta.scope``, honoured by the run: stages/snapshots.py).

An importer names each query's snapshot (:class:`Snapshot`), loads them all once (:func:`load_snapshots`),
reads its gold against the loaded files under each snapshot's prefix (:meth:`SnapshotCorpus.prefix`), then
keeps the snapshots its kept queries search (:meth:`SnapshotCorpus.searched`): a snapshot whose queries were
all skipped (their gold not indexed, say) leaves the set, without loading the corpus again. Used by the
swebench, ye, gandhi and bench4bl importers and the miner (``datasets mine``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable, Sequence

from hermes_eval.core import Corpus
from hermes_eval.core.corpus import CorpusFile


@dataclass(frozen=True, order=True)
class Snapshot:
    """One corpus source a query searches, and its files' prefix in a corpus of several."""

    source: str  # a corpus source: git:MIRROR@SHA, wheel:NAME==VERSION, ...
    prefix: str  # NAME@SHA8/ (a release's NAME-VERSION/); a corpus of one source has none


def git_snapshot(mirror: Path, sha: str) -> Snapshot:
    """The snapshot of ``mirror`` (a clone or bare mirror) at the full ``sha``: ``git:MIRROR@SHA`` under
    ``NAME@SHA8/``, NAME the repository's (``repo_name``)."""
    from hermes_eval.corpus.git_source import repo_name

    return Snapshot(f"git:{Path(mirror).resolve()}@{sha}", f"{repo_name(Path(mirror))}@{sha[:8]}/")


@dataclass(frozen=True)
class SnapshotSet:
    """The corpus a snapshot set names in its manifest: its sources, whether queries are scoped to one of
    them, the fingerprint of their files, and how many loaded snapshots no kept query searched."""

    sources: tuple[str, ...]
    fingerprint: str
    unsearched: int = 0  # snapshots loaded for queries that were all skipped: left out of ``sources``

    @property
    def scoped(self) -> bool:
        """Several snapshots: each query searches the one its ``meta.scope`` names."""
        return len(self.sources) > 1


@dataclass(frozen=True)
class SnapshotCorpus:
    """The snapshots' corpus, loaded once: what an importer reads its gold against."""

    snapshots: tuple[Snapshot, ...]  # distinct, sorted by source
    corpus: Corpus | None  # None when there are no snapshots

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(s.source for s in self.snapshots)

    def prefix(self, snapshot: Snapshot) -> str:
        """``snapshot``'s prefix in this corpus: none when it is the only snapshot."""
        return snapshot.prefix if len(self.snapshots) > 1 else ""

    @cached_property
    def files(self) -> dict[str, CorpusFile]:
        """Every loaded file by its corpus path (prefix included)."""
        return self.corpus.by_path() if self.corpus is not None else {}

    def whole(self) -> SnapshotSet:
        """The set over every loaded snapshot."""
        if self.corpus is None:
            raise ValueError("a snapshot set without snapshots has no corpus")
        return SnapshotSet(self.sources, self.corpus.fingerprint)

    def searched(self, scopes: Iterable[str]) -> SnapshotSet:
        """The set over the snapshots whose prefix is one of ``scopes`` (the kept queries' ``meta.scope``).
        All are kept when fewer than two would be left (one snapshot has no prefix, and the queries name
        theirs) or when every one is searched."""
        used = set(scopes)
        kept = [s for s in self.snapshots if s.prefix in used]
        if not 1 < len(kept) < len(self.snapshots):
            return self.whole()
        prefixes = tuple(s.prefix for s in kept)
        part = Corpus(self.corpus.name, tuple(f for f in self.corpus.files if f.path.startswith(prefixes)),
                      sources=tuple(s.source for s in kept))
        return SnapshotSet(part.sources, part.fingerprint, unsearched=len(self.snapshots) - len(kept))


def load_snapshots(snapshots: Iterable[Snapshot], *, name: str, cache_dir: str | Path,
                   languages: Sequence[str] = (), exclude: Sequence[str] = ()) -> SnapshotCorpus:
    """The distinct ``snapshots`` loaded as one corpus (``languages``: only these are indexed; ``exclude``:
    corpus paths never indexed), sorted by source as the manifest lists them."""
    from hermes_eval.corpus import load_corpus

    distinct = tuple(sorted(set(snapshots)))
    if len({s.source for s in distinct}) != len(distinct):
        raise ValueError(f"a snapshot source with two prefixes: {list(distinct)}")
    corpus = load_corpus([s.source for s in distinct], name=name, cache_dir=str(cache_dir),
                         languages=list(languages) or None, exclude=tuple(exclude)) if distinct else None
    return SnapshotCorpus(distinct, corpus)
