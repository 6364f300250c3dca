"""Comparing two engines' rankings (or one engine's on two CPUs) without relying on their low bits.

Two engines computing the same cosine round differently (their own SIMD kernels and summation
orders; another CPU picks another kernel), so their scores agree only to a tolerance and hits whose
scores lie within it (a near-tie) may come in either order. Away from near-ties the order is the
contract, and is compared exactly.
"""
from __future__ import annotations

import numpy as np

Hit = tuple[str, float]


def near_tie_groups(hits: list[Hit], tol: float) -> list[tuple[int, int]]:
    """[start, end) spans of ``hits`` (best first) whose neighbouring scores lie within ``tol``."""
    groups, start = [], 0
    for i in range(1, len(hits) + 1):
        if i == len(hits) or hits[i - 1][1] - hits[i][1] > tol:
            groups.append((start, i))
            start = i
    return groups


def assert_same_ranking(got: list[Hit], want: list[Hit], tol: float = 1e-5, depth: int | None = None) -> None:
    """``got``'s first ``depth`` hits (all by default) rank as ``want`` does: scores equal within ``tol``
    position by position, ids equal except that a near-tie (``want`` scores within ``tol``) compares as a
    set. ``want`` may be longer than the compared prefix, so a near-tie cut by the prefix is judged
    against all its members."""
    got = got[: len(got) if depth is None else depth]
    assert len(got) <= len(want), f"{len(got)} hits, the reference has {len(want)}"
    assert np.allclose([s for _, s in got], [s for _, s in want[: len(got)]], rtol=0, atol=tol), (got, want)
    for start, end in near_tie_groups(want, tol):
        if start >= len(got):
            break
        mine, theirs = {c for c, _ in got[start:end]}, {c for c, _ in want[start:end]}
        if end <= len(got):
            assert mine == theirs, f"ranks {start}-{end - 1}: {sorted(mine)} != {sorted(theirs)}"
        else:
            assert mine <= theirs, f"ranks {start}-{len(got) - 1}: {sorted(mine - theirs)} not in the near-tie"
