"""scope_of: the snapshot a path lies under, by set lookup for one-folder prefixes, as a scan finds it."""
from __future__ import annotations

import random

from hermes_eval.core.queryset import scope_of


def _scan(path, scopes):
    return max((s for s in scopes if s and path.startswith(s)), key=len, default="")


def test_the_fast_lookup_agrees_with_a_scan_of_every_prefix():
    rng = random.Random(0)
    flat = [f"repo@{i:08x}/" for i in range(50)]
    nested = flat[:5] + ["repo@00000001/sub/", "other/"]
    paths = [f"{rng.choice(flat)}{rng.choice(['a.py', 'sub/b.py', 'x/y/z.py'])}" for _ in range(500)]
    paths += ["repo@ffffffff/a.py", "a.py", "repo@00000001", "repo@00000001/sub/c.py", ""]
    for scopes in (flat, nested, ["", *flat[:3]], []):
        assert [scope_of(p, scopes) for p in paths] == [_scan(p, scopes) for p in paths]
    assert scope_of("repo@00000001/sub/c.py", nested) == "repo@00000001/sub/"  # the longest prefix wins
