"""Snapshots are built repository by repository, each next to the one it shares most texts with."""
from __future__ import annotations

from hermes_eval.stages.scoped import build_order
from retrievers.chunk import Chunk


def _snap(scope: str, texts: list[str]) -> list[Chunk]:
    return [Chunk(f"{scope}m.py", i + 1, i + 1, t, "python") for i, t in enumerate(texts)]


def test_each_next_snapshot_is_the_one_sharing_most_with_the_last():
    base = [f"def f{i}(): pass" for i in range(10)]
    by_scope = {
        "r@1/": _snap("r@1/", base),
        "r@2/": _snap("r@2/", [f"def g{i}(): pass" for i in range(10)]),  # another release line
        "s@1/": _snap("s@1/", ["x = 1"]),
        "r@3/": _snap("r@3/", base[:9] + ["def f9(): return 1"]),
        "r@4/": _snap("r@4/", [f"def g{i}(): pass" for i in range(9)]),
    }
    order = build_order(list(by_scope), by_scope)
    assert order == ["r@1/", "r@3/", "r@2/", "r@4/", "s@1/"]
    assert sorted(order) == sorted(by_scope)


def test_ties_keep_the_listed_order_and_a_lone_snapshot_stays():
    by_scope = {s: _snap(s, ["same"]) for s in ("r@a/", "r@b/", "r@c/")}
    assert build_order(list(by_scope), by_scope) == ["r@a/", "r@b/", "r@c/"]
    assert build_order([""], {"": _snap("", ["t"])}) == [""]


def test_the_order_is_the_greedy_path_over_pairwise_set_intersections():
    import random

    rng = random.Random(11)
    pool = [f"def f{i}(): return {i}" for i in range(60)]
    by_scope = {f"{repo}@{k}/": _snap(f"{repo}@{k}/", rng.sample(pool, rng.randint(1, 40)) * rng.randint(1, 2))
                for repo in ("a", "b") for k in range(12)}
    scopes = list(by_scope)
    held = {sc: {c.text for c in by_scope[sc]} for sc in scopes}  # the plain rule, written out
    want = []
    for repo in ("a", "b"):
        members = [sc for sc in scopes if sc.startswith(repo + "@")]
        last, left = members[0], members[1:]
        want.append(last)
        while left:
            last = max(left, key=lambda sc: len(held[sc] & held[last]))
            left.remove(last)
            want.append(last)
    assert build_order(scopes, by_scope) == want
