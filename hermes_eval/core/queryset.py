"""A query set: queries plus the manifest that says how they were made."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from hermes_eval.core.spans import Span
from hermes_eval.core.query import Query


def scope_of(path: str, scopes) -> str:
    """The snapshot prefix ``path`` lies under ('' when none): a query only sees its own."""
    return scope_finder(tuple(scopes))(path)


@lru_cache(maxsize=64)
def scope_finder(scopes: tuple[str, ...]) -> Callable[[str], str]:
    """``scope_of`` over ``scopes``, set up once: for the loops that ask it of every file or chunk."""
    heads, flat = _scope_index(scopes)
    if flat:  # every prefix is one folder (``NAME@COMMIT8/``): a set lookup, not a scan of them all
        def find(path: str) -> str:
            head = path[:path.find("/") + 1]
            return head if head in heads else ""
        return find
    return lambda path: max((s for s in scopes if s and path.startswith(s)), key=len, default="")


@lru_cache(maxsize=64)
def _scope_index(scopes: tuple[str, ...]) -> tuple[frozenset[str], bool]:
    kept = frozenset(s for s in scopes if s)
    return kept, all(s.endswith("/") and s.count("/") == 1 for s in kept)


@dataclass(frozen=True)
class QuerySet:
    name: str
    queries: tuple[Query, ...]
    manifest: dict = field(default_factory=dict)

    @property
    def masks(self) -> list[Span]:
        """Spans to blank from the indexed corpus (the text each query was taken from)."""
        return [Span(**m) for q in self.queries for m in q.meta.get("mask", [])]

    @property
    def scopes(self) -> list[str]:
        """Path prefixes of the snapshots its queries search (``meta.scope``; '' when unscoped)."""
        return list(dict.fromkeys(str(q.meta.get("scope") or "") for q in self.queries))

    def __len__(self) -> int:
        return len(self.queries)
