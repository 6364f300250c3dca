"""What consecutive arms of one sweep share when they run in one process: the last corpus (with its
query set) and the last chunking of it, with what is derived from that chunking alone.

A sweep's arms differ in retriever, fusion or weights far more often than in corpus or chunker, and
each arm would otherwise load the same snapshots from git and read the same chunks back from the
chunk store (on SWE-bench Lite: 137 snapshots, 2.5M function chunks, about half of a warm arm).
Inside :func:`sharing` (the sweep launcher enters it around each job) a value is computed once per
key and handed to the next arm that asks with the same key. Only the last key of each level is kept,
and a new key drops its level and every later one *before* computing: memory stays bounded by one
corpus and one chunking, never by the sweep. Outside :func:`sharing` nothing is kept, so a single
``hermes-eval run`` (and every test that runs one) computes everything itself.

Everything kept is immutable (frozen records, tuples) or read-only by contract; the sharing never
decides a number: an arm reads exactly what it would have computed.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Hashable, Iterator, TypeVar

T = TypeVar("T")

LEVELS = ("corpus", "chunking")  # each level depends on the ones before it
_active = 0
_kept: dict[str, tuple[Hashable, dict[Hashable, Any]]] = {}


@contextmanager
def sharing() -> Iterator[None]:
    """Within this block, :func:`kept` keeps values for the next arm; what is kept outlives the block
    (the next job's block finds it); :func:`clear` lets it go."""
    global _active
    _active += 1
    try:
        yield
    finally:
        _active -= 1


def active() -> bool:
    return _active > 0


def kept(level: str, key: Hashable, what: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, or the value kept under (``level``, ``key``, ``what``) while :func:`sharing`."""
    if not _active:
        return compute()
    held = _kept.get(level)
    if held is None or held[0] != key:
        for later in LEVELS[LEVELS.index(level):]:  # let the old values go before making new ones
            _kept.pop(later, None)
        held = _kept[level] = (key, {})
    values = held[1]
    if what not in values:
        values[what] = compute()
    return values[what]


def clear() -> None:
    """Let every kept value go (the end of a sweep)."""
    _kept.clear()


def held() -> dict[str, tuple[Hashable, tuple[Hashable, ...]]]:
    """Per level, its key and the names of the values kept (for tests and logs)."""
    return {level: (key, tuple(values)) for level, (key, values) in _kept.items()}
