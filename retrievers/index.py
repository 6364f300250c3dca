"""The protocol every index backend implements, the ranked-result records and helpers they share."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Literal, Protocol, Sequence, runtime_checkable

import numpy as np

Hit = tuple[str, float]
"""(chunk id, raw score); higher scores rank first."""


@dataclass
class SearchResult:
    """One query's ranked hits and the nanoseconds each stage took (a pipeline's or a service's)."""

    hits: list[Hit]
    timings_ns: dict[str, int]


@runtime_checkable
class Index(Protocol):
    """Build from chunk ids and documents, search a batch of queries, save and load.

    ``input`` says what documents and queries are: ``"text"`` for lexical indexes,
    ``"vector"`` (a float32 matrix, one row per document or query) for dense ones.

    Order and ties at the cut, what every backend guarantees (``tests/retrievers/test_backend_protocol.py``):

    - Every backend returns at most k distinct hits, best first, hits whose returned scores are equal in
      ascending id order (:func:`by_score_then_id`). "Tied" means the returned float scores compare equal.
      An exact vector backend returns ``min(k, n)``; a text one only documents sharing a term with the query.
    - Exact backends (every sparse index, ``exact``, faiss ``flat``, ``sqlite_vec``) score every
      document, so when more documents tie at the k-th score than fit, they return the k smallest ids
      among them (:func:`top_k`, :func:`settle_ties`).
    - Approximate backends (faiss ``ivf`` and ``hnsw``, usearch; ``backend_cases.ANN``) return the k best
      of the candidates their search reaches, ordered as above; which members of a tie group those are is
      not guaranteed. Which nodes a graph search reaches follows the graph, so the vectors' low bits and the
      CPU's SIMD path, and an engine may score identical vectors an ulp apart (faiss HNSW scores some
      neighbours four at a time and others one by one: on AVX2, one duplicate scored 1.0 and its
      twins 0.99999994), which are then not tied. At ``k >= n`` they search exhaustively and are exact.
    - Identical documents are not promised equal scores by every exact engine either: numpy/OpenBLAS
      (``exact``) computes the last rows of a matrix in a tail kernel, an ulp or two off the others.
    - Within one process, the same build and query give bit-identical hits. Across CPUs (SIMD paths),
      scores may differ in their low bits and near-ties may reorder; only ids and their order away from
      near-ties are comparable there.
    """

    input: ClassVar[Literal["text", "vector"]]

    def build(self, ids: Sequence[str], docs: Sequence[str] | np.ndarray) -> None: ...

    def search(self, queries: Sequence[str] | np.ndarray, k: int) -> list[list[Hit]]: ...

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None: ...


def top_k(ids: Sequence[str], scores: np.ndarray, k: int, candidates: np.ndarray | None = None
          ) -> list[Hit]:
    """The k best (id, score) pairs, ties broken by id so every backend orders alike."""
    idx = np.arange(len(ids)) if candidates is None else np.asarray(candidates, dtype=np.int64)
    if k <= 0 or idx.size == 0:
        return []
    sub = scores[idx]
    if idx.size > k:
        # keep everything tied with the k-th score so the id tie-break is exact
        kth = np.partition(-sub, k - 1)[k - 1]
        keep = -sub <= kth
        idx, sub = idx[keep], sub[keep]
    order = sorted(range(idx.size), key=lambda j: (-float(sub[j]), ids[idx[j]]))[:k]
    return [(ids[idx[j]], float(sub[j])) for j in order]


def check_k(k: int) -> int:
    """``k`` as an int, or ValueError unless it is a positive integer."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k <= 0:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    return int(k)


def by_score_then_id(hits: list[Hit]) -> list[Hit]:
    """Hits ordered best first, ties broken by id."""
    return sorted(hits, key=lambda h: (-h[1], h[0]))


def settle_ties(fetch: Callable[[int], list[Hit]], k: int, n: int, first: list[Hit] | None = None
                ) -> list[Hit]:
    """The k best hits of an engine that returns its own top ``want``, ties broken by id.

    ``fetch(want)`` returns up to ``want`` hits; ``first`` is an answer to ``fetch(min(k + 1, n))``
    already in hand. While the last fetched hit ties with the k-th best, more tied hits may lie
    beyond, so the window doubles until it ends below the k-th score or covers all ``n`` documents.
    """
    want = min(k + 1, n)
    hits = fetch(want) if first is None else first
    while want < n and len(hits) >= want and _tied_at_boundary(hits, k):
        want = min(2 * want, n)
        hits = fetch(want)
    return by_score_then_id(hits)[:k]


def _tied_at_boundary(hits: list[Hit], k: int) -> bool:
    scores = sorted((s for _, s in hits), reverse=True)
    return len(scores) > k and scores[-1] >= scores[k - 1]
