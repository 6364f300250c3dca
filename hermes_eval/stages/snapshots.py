"""Query sets over several snapshots of repositories (SWE-bench: one repository at many commits).

Each query carries ``meta.scope``, the path prefix of its snapshot (``NAME@COMMIT8/``); it is
searched in an index of that snapshot alone. Work is shared by content: a file whose text is the
same at an earlier snapshot (same path inside the repository) is not chunked again, and chunk
texts already embedded come from the embedding cache, so a later commit costs only what changed.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from hermes_eval.core import Corpus, Query
from hermes_eval.core.queryset import scope_of as _scope_of
from retrievers.chunk import Chunk
from retrievers.chunkers.base import merged
from retrievers.progress import track


def scopes_of(queries: Sequence[Query]) -> list[str]:
    """The snapshot prefixes the queries use, in first-seen order ('' when unscoped)."""
    return list(dict.fromkeys(str(q.meta.get("scope") or "") for q in queries))


def chunk_by_content(chunker, indexed: Corpus, scopes: Sequence[str]) -> tuple[list[Chunk], dict]:
    """Chunks of every file, each (path inside its snapshot, text) chunked once; and the reuse:
    per snapshot (in the order given), files and chunks taken from an earlier one versus made anew."""
    memo: dict[tuple[str, str], list[Chunk]] = {}
    seen: dict[str, Chunk] = {}
    texts: dict[str, str] = {}
    per: dict[str, dict[str, int]] = {}
    order = {s: i for i, s in enumerate(scopes)}  # snapshots in the order the queries list them
    files = sorted(indexed.files, key=lambda f: (order.get(_scope_of(f.path, scopes), -1), f.path))
    with track("chunking", len(files), "files") as tracker:
        for f in files:
            scope = _scope_of(f.path, scopes)
            rel = f.path[len(scope):]
            key = (rel, f.text)  # the text itself: its hash is computed once and kept by the string
            row = per.setdefault(scope, {"files": 0, "files_reused": 0, "chunks": 0, "chunks_reused": 0})
            reused = key in memo
            if not reused:  # equal chunk texts (a function unchanged in an edited file) are one string
                memo[key] = [replace(c, text=texts.setdefault(c.text, c.text))
                             for c in chunker.chunk(rel, f.text, f.language) if c.text.strip()]
            row["files"] += 1
            row["files_reused"] += reused
            for c in memo[key]:
                seen.setdefault(scope + c.id, replace(c, path=scope + c.path))
            row["chunks"] += len(memo[key])
            row["chunks_reused"] += len(memo[key]) if reused else 0
            tracker.update()
    by_scope: dict[str, list[Chunk]] = {}
    for c in seen.values():
        by_scope.setdefault(_scope_of(c.path, scopes), []).append(c)
    chunks = sorted((c for part in by_scope.values() for c in merged(chunker, part)),
                    key=lambda c: (c.path, c.start, c.end))
    return chunks, per

