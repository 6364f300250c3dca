"""Result ids stored relative to their query's snapshot: a set over many snapshots of a repository names
every chunk and file ``NAME@SHA8/path`` (the snapshot a query was asked at), so the same file is a new id
in every query; stored without that prefix, ids repeat across queries and their column's dictionary
keeps each once. Lossless for any ids: one that does not start with the prefix (or whose remainder starts
with :data:`ESCAPE`) is stored whole behind :data:`ESCAPE`."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

ESCAPE = "\x01"  # marks an id stored whole (no chunk id or path holds it)


def snapshot_of(doc_id: str) -> str:
    """The id's snapshot prefix (``NAME@SHA8/``: its first path part, when that names a commit), else ''."""
    head, sep, _ = doc_id.partition("/")
    return f"{head}{sep}" if sep and "@" in head else ""


def common_snapshot(ids: Iterable[str]) -> str:
    """The snapshot prefix most of ``ids`` start with (the first seen on a tie), '' when none has one."""
    counts = Counter(p for p in map(snapshot_of, ids) if p)
    return counts.most_common(1)[0][0] if counts else ""


def relative(prefix: str, doc_id: str) -> str:
    """``doc_id`` as stored under ``prefix``."""
    rest = doc_id[len(prefix):]
    return rest if doc_id.startswith(prefix) and not rest.startswith(ESCAPE) else ESCAPE + doc_id


def absolute(prefix: str, stored: str) -> str:
    """The id :func:`relative` stored as ``stored``."""
    return stored[len(ESCAPE):] if stored.startswith(ESCAPE) else prefix + stored


__all__ = ["ESCAPE", "absolute", "common_snapshot", "relative", "snapshot_of"]
