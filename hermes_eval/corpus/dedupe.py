"""``dedupe=true``: collapse files with identical text into one (the first path in sort order; within a
snapshot, or for a pooled query set at the same path of a repository) and carry relevance over: a gold
or exclude span on a dropped copy moves to the kept one (same text, same lines), so a query whose gold
has identical twins is no longer judged against them."""
from __future__ import annotations

from dataclasses import replace

from hermes_eval.core import Corpus, Query, Span
from hermes_eval.core.queryset import QuerySet, scope_finder


REPOSITORY_PATH = "repository_path"  # a query set's ``dedupe_by``: one file of a repository, any snapshot


def repository_path(path: str) -> str:
    """``NAME@COMMIT8/rel`` -> ``NAME/rel``: the same file of a repository at any of its snapshots."""
    head, sep, rest = path.partition("/")
    return f"{head.partition('@')[0]}{sep}{rest}" if sep else path


def twins(corpus: Corpus, scopes: list[str] | None = None, by: str | None = None) -> dict[str, str]:
    """Path of each duplicate copy -> the path kept for its text (files with equal text in the
    same snapshot, the first path in sort order kept). ``by=repository_path`` (a pooled set's): copies
    are files with equal text at the same path of the same repository, whatever their snapshot."""
    kept: dict[tuple[str, str], str] = {}
    out: dict[str, str] = {}
    finder = scope_finder(tuple(scopes or ()))
    where = repository_path if by == REPOSITORY_PATH else finder
    for f in sorted(corpus.files, key=lambda f: f.path):
        first = kept.setdefault((where(f.path), f.text), f.path)
        if first != f.path:
            out[f.path] = first
    return out


def _move(spans: tuple[Span, ...], to: dict[str, str]) -> tuple[Span, ...]:
    moved = {replace(s, path=to.get(s.path, s.path)) for s in spans}
    return tuple(sorted(moved))


def dedupe(corpus: Corpus, qs: QuerySet) -> tuple[Corpus, QuerySet, dict]:
    """(corpus without duplicate copies, queries judged on the kept copies, counts)."""
    to = twins(corpus, qs.scopes, qs.manifest.get("dedupe_by"))
    if not to:
        return corpus, qs, {"dropped_copies": 0, "queries_moved": 0}
    files = tuple(f for f in corpus.files if f.path not in to)
    skipped = dict(corpus.skipped, duplicate_text=len(to))
    queries: list[Query] = []
    moved = 0
    for q in qs.queries:
        gold, exclude = _move(q.gold, to), _move(q.exclude, to)
        moved += gold != tuple(sorted(set(q.gold)))
        queries.append(replace(q, gold=gold, exclude=exclude))
    manifest = dict(qs.manifest, dedupe={"dropped_copies": len(to), "queries_moved": moved})
    return (replace(corpus, files=files, skipped=skipped), replace(qs, queries=tuple(queries), manifest=manifest),
            {"dropped_copies": len(to), "queries_moved": moved})
