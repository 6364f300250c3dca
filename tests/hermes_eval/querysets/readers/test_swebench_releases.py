"""Release substitutes: a golden patch is kept on a release only with exact context, the release whose
hunks moved least wins (ties to the older), and gold lines move with the hunks."""
from __future__ import annotations

from pathlib import Path

from hermes_eval.querysets.readers.patches import parse_patch, ranges
from hermes_eval.querysets.readers.swebench_releases import Releases, nearest, offsets, relocate, shifted

BASE = [f"value_{i} = {i}" for i in range(1, 61)]
PATCH = """diff --git a/lib/pkg/mod.py b/lib/pkg/mod.py
--- a/lib/pkg/mod.py
+++ b/lib/pkg/mod.py
@@ -9,7 +9,7 @@
 value_9 = 9
 value_10 = 10
 value_11 = 11
-value_12 = 12
+value_12 = 'twelve'
 value_13 = 13
 value_14 = 14
 value_15 = 15
@@ -40,6 +40,7 @@
 value_40 = 40
 value_41 = 41
 value_42 = 42
+value_42b = 42.5
 value_43 = 43
 value_44 = 44
 value_45 = 45
"""


def _release(root: Path, version: str, lines: list[str]) -> Path:
    folder = root / version
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "mod.py").write_text("\n".join(lines) + "\n")
    return folder


def test_the_release_whose_hunks_moved_least_is_chosen_and_gold_moves_with_them(tmp_path):
    roots = {"1.0": _release(tmp_path, "1.0", ["# header"] * 5 + BASE),  # both hunks 5 lines down
             "1.1": _release(tmp_path, "1.1", BASE[:20] + ["# new"] * 2 + BASE[20:]),  # second hunk 2 down
             "1.2": _release(tmp_path, "1.2", [x.replace("value_13 = 13", "value_13 = 'x'") for x in BASE]),
             "1.3": _release(tmp_path, "1.3", BASE[:11] + ["value_12 = 'twelve'"] + BASE[12:])}  # the fix is in
    source = Releases("acme/pkg", "pkg", ("1.0", "1.1", "1.2", "1.3"), strip="lib/")
    moved = relocate(PATCH, "lib/")
    assert "--- a/pkg/mod.py" in moved and relocate(PATCH.replace("lib/pkg", "src/pkg"), "lib/") is None
    assert offsets(moved, roots["1.0"]) == [5, 5] and offsets(moved, roots["1.1"]) == [0, 2]
    assert offsets(moved, roots["1.2"]) is None  # a context line differs: no fuzz allowed
    assert offsets(moved, roots["1.3"]) is None  # the release already holds the fix: not applied in reverse
    version, patch = nearest(PATCH, source, roots.__getitem__)
    assert version == "1.1"
    [change] = parse_patch(patch)[0]
    assert change.path == "pkg/mod.py" and ranges(change) == [(12, 12), (44, 44)]  # 42 + 2 lines
    lines = (roots["1.1"] / "pkg" / "mod.py").read_text().split("\n")
    assert lines[11] == "value_12 = 12" and lines[43] == "value_42 = 42"  # the gold lines in the release


def test_ties_go_to_the_older_release(tmp_path):
    roots = {v: _release(tmp_path, v, BASE) for v in ("2.0", "2.1")}
    found = nearest(PATCH, Releases("acme/pkg", "pkg", ("2.0", "2.1"), strip="lib/"), roots.__getitem__)
    assert found[0] == "2.0" and shifted(relocate(PATCH, "lib/"), [0, 0]) == found[1]
