"""Why a commit is not a query: a registry of small frozen filters, asked in order; the first that
skips a commit names the reason it is counted under in the manifest (``skipped: {reason: n}``).

The cheap ones (parents, author, message) come first, so a commit's diff is read only when they
pass; duplicates (same ``git patch-id --stable``) are found over the commits every filter kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from hermes_eval.querysets.mined.changes import Change, read_change
from hermes_eval.querysets.mined.commits import Commit
from hermes_eval.querysets.mined.message import cherry_picked_from, is_revert, reverted, word_count
from hermes_eval.querysets.mined.release import release_subject, version_only

BOTS = ("[bot]", "dependabot", "renovate", "github-actions", "pre-commit-ci", "greenkeeper", "snyk-bot",
        "mergify", "allcontributors")


def _expand(prefixes: list[str], shas: list[str]) -> set[str]:
    """The walked shas each (possibly abbreviated) sha names."""
    return {s for p in prefixes for s in shas if s.startswith(p)}


@dataclass
class Walk:
    """What filters need to know about the whole range: the commits a revert in it names, and the
    commits a cherry-picked copy in it was taken from."""

    repo: Path
    commits: list[Commit]
    reverted: set[str] = field(init=False)
    picked: dict[str, set[str]] = field(init=False)  # copy sha -> the in-range originals it names

    def __post_init__(self) -> None:
        shas = [c.sha for c in self.commits]
        self.reverted = _expand([s for c in self.commits if is_revert(c.message) for s in reverted(c.message)], shas)
        self.picked = {c.sha: _expand(cherry_picked_from(c.message), shas) - {c.sha} for c in self.commits
                       if "cherry picked from commit" in c.message}


@dataclass
class Candidate:
    """A commit being judged: its cleaned message (the query) and, read on first use, its diff."""

    commit: Commit
    query: str
    walk: Walk
    _change: Change | None = None

    @property
    def change(self) -> Change:
        if self._change is None:
            self._change = read_change(self.walk.repo, self.commit.parents[0], self.commit.sha)
        return self._change


class Filter(Protocol):
    """``reason`` (its manifest key) and ``skips(candidate)``."""

    reason: str

    def skips(self, c: Candidate) -> bool: ...


@dataclass(frozen=True)
class Merge:
    """A merge commit (more than one parent): its change is the branch's, already walked or not."""

    reason: str = "merge"

    def skips(self, c: Candidate) -> bool:
        return len(c.commit.parents) > 1


@dataclass(frozen=True)
class Root:
    """The first commit: no parent snapshot to search."""

    reason: str = "root"

    def skips(self, c: Candidate) -> bool:
        return not c.commit.parents


@dataclass(frozen=True)
class Bot:
    """An author whose ``Name <email>`` holds one of ``patterns`` (case-insensitive)."""

    patterns: tuple[str, ...] = BOTS
    reason: str = "bot"

    def skips(self, c: Candidate) -> bool:
        author = c.commit.author.lower()
        return any(p.lower() in author for p in self.patterns if p)


@dataclass(frozen=True)
class Revert:
    """A revert (``Revert "..."`` or ``This reverts commit X``)."""

    reason: str = "revert"

    def skips(self, c: Candidate) -> bool:
        return is_revert(c.commit.message)


@dataclass(frozen=True)
class Reverted:
    """A commit a revert in the range takes back."""

    reason: str = "reverted"

    def skips(self, c: Candidate) -> bool:
        return c.commit.sha in c.walk.reverted


@dataclass(frozen=True)
class CherryPick:
    """A copy whose ``(cherry picked from commit X)`` names a commit in the range (the original counts)."""

    reason: str = "cherry_pick"

    def skips(self, c: Candidate) -> bool:
        return bool(c.walk.picked.get(c.commit.sha))


@dataclass(frozen=True)
class Release:
    """A version bump or a changelog-only release: a subject naming one, and no code line changed but version
    lines (``release.py``)."""

    reason: str = "release"

    def skips(self, c: Candidate) -> bool:
        return release_subject(c.query) and version_only(c.change)


@dataclass(frozen=True)
class ShortMessage:
    """A cleaned message of fewer than ``min_words`` words."""

    min_words: int
    reason: str = "short_message"

    def skips(self, c: Candidate) -> bool:
        return word_count(c.query) < self.min_words


@dataclass(frozen=True)
class OnlyTests:
    """Only test files' existing lines change (kept as gold when ``keep_tests``)."""

    kinds: frozenset[str]
    reason: str = "test_only"

    def skips(self, c: Candidate) -> bool:
        return "test" not in self.kinds and not c.change.gold(self.kinds) and bool(c.change.gold(frozenset({"test"})))


@dataclass(frozen=True)
class OnlyDocs:
    """Only documentation's existing lines change (kept as gold when ``keep_docs``)."""

    kinds: frozenset[str]
    reason: str = "docs_only"

    def skips(self, c: Candidate) -> bool:
        return "docs" not in self.kinds and not c.change.gold(self.kinds) and bool(c.change.gold(frozenset({"docs"})))


@dataclass(frozen=True)
class NoSourceChange:
    """No existing source line changes: only new files, config, binary files or pure renames."""

    kinds: frozenset[str]
    reason: str = "no_source_change"

    def skips(self, c: Candidate) -> bool:
        return not c.change.gold(self.kinds)


@dataclass(frozen=True)
class Tangled:
    """More than ``max_files`` source files changed (created, deleted or edited): several changes in one."""

    max_files: int
    kinds: frozenset[str]
    reason: str = "tangled"

    def skips(self, c: Candidate) -> bool:
        return c.change.touched(self.kinds) > self.max_files


def registry(kinds: frozenset[str], min_words: int, max_files: int, bots: tuple[str, ...]) -> tuple[Filter, ...]:
    """Every filter, in the order they are asked."""
    return (Merge(), Root(), Bot(bots), Revert(), Reverted(), CherryPick(), Release(), ShortMessage(min_words),
            OnlyTests(kinds), OnlyDocs(kinds), NoSourceChange(kinds), Tangled(max_files, kinds))


def first_reason(filters: tuple[Filter, ...], c: Candidate) -> str | None:
    """The reason of the first filter that skips ``c``, or None when it is kept."""
    return next((f.reason for f in filters if f.skips(c)), None)


def duplicates(kept: list[Candidate], ids: dict[str, str]) -> set[str]:
    """Shas whose patch id an earlier kept commit (committer date, then walk order) already has."""
    seen: set[str] = set()
    out: set[str] = set()
    for c in sorted(kept, key=lambda c: c.commit.when):  # stable: the walk order breaks ties
        pid = ids.get(c.commit.sha)
        if pid is None:
            continue
        if pid in seen:
            out.add(c.commit.sha)
        seen.add(pid)
    return out
