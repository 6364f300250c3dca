"""A snapshot set's run split into shards: ``shard=I/N`` searches the I-th group of snapshots and
writes its part; the job that completes the set of parts merges them into the run's one record.

Snapshots go to shards in the order the queries list them, round robin over repositories first (the
k-th snapshot of every repository lands in shard k mod N), so each shard gets a share of every
repository. A part is written to a private temporary file and renamed into place
(``<run>/shards/I-of-N.pkl`` with its sha256 beside it), so shards share a runs folder with one writer
per file; the merge runs under the run folder's writer lock. A part holds what the search stage
produced for its snapshots: rankings, raw scores, per-stage timings, per-snapshot build facts and the
embedder's counters; the merged run scores exactly the rankings an unsharded run would make, since
each snapshot's indexes and searches do not depend on the others.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from hermes_eval.core.measured import Measured


def assign(scopes: Sequence[str], n: int) -> list[list[str]]:
    """``scopes`` (in query order) into ``n`` groups: each repository's snapshots dealt round robin,
    continuing from where the previous repository stopped, so shards get even counts."""
    by_repo: dict[str, list[str]] = {}
    for scope in scopes:
        by_repo.setdefault(scope.split("@")[0], []).append(scope)
    groups: list[list[str]] = [[] for _ in range(n)]
    turn = 0
    for members in by_repo.values():
        for scope in members:
            groups[turn % n].append(scope)
            turn += 1
    return groups


@dataclass
class Part:
    """One shard's search results."""

    shard: tuple[int, int]
    scopes: list[str]
    measured: Measured
    snapshots: dict = field(default_factory=dict)  # scope -> files, chunks, queries
    work: dict = field(default_factory=dict)  # scope -> build seconds, texts tokenized, embeddings
    build_seconds: dict = field(default_factory=dict)
    build_total: float = 0.0
    embedder_stats: dict = field(default_factory=dict)
    events: list = field(default_factory=list)
    wall_seconds: float = 0.0
    peak_rss_mb: float = 0.0


def part_path(run_dir: Path, shard: tuple[int, int]) -> Path:
    i, n = shard
    return run_dir / "shards" / f"{i}-of-{n}.pkl"


def write_part(run_dir: Path, part: Part) -> Path:
    """``part`` written atomically beside its checksum (a private temp file renamed into place)."""
    path = part_path(run_dir, part.shard)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
    for target, payload in ((path, data), (path.with_suffix(".sha256"), hashlib.sha256(data).hexdigest().encode())):
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(payload)
        os.replace(tmp, target)
    return path


def read_part(run_dir: Path, shard: tuple[int, int]) -> Part | None:
    """The shard's part when it is there whole (its checksum holds), else None."""
    path = part_path(run_dir, shard)
    try:
        data = path.read_bytes()
        expected = path.with_suffix(".sha256").read_text().strip()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != expected:
        return None
    try:
        part = pickle.loads(data)
    except Exception:  # noqa: BLE001 - an unreadable part is computed again
        return None
    return part if isinstance(part, Part) and part.shard == shard else None


def all_parts(run_dir: Path, n: int) -> list[Part] | None:
    """Every part of an n-way split, or None while one is missing."""
    parts = [read_part(run_dir, (i, n)) for i in range(n)]
    return None if any(p is None for p in parts) else parts
