"""SWE-bench's golden patch -> old-side line runs: runs longer than one line, a pure insertion anchored at
the line before it, and separate runs kept apart (expected spans derived by hand from the hunks)."""
from __future__ import annotations

from hermes_eval.querysets.readers.patches import parse_patch, ranges

PATCH = """diff --git a/pkg/mod.py b/pkg/mod.py
--- a/pkg/mod.py
+++ b/pkg/mod.py
@@ -10,7 +10,5 @@ def f():
 ctx10
 ctx11
-old12
-old13
-old14
+new12
 ctx15
 ctx16
@@ -30,2 +28,4 @@
 ctx30
+ins1
+ins2
 ctx31
@@ -40,4 +40,2 @@
-old40
-old41
 ctx42
-old43
"""


def test_runs_longer_than_a_line_stay_whole():
    # hunk 1 replaces old 12-14; hunk 2 inserts after old 30; hunk 3 removes 40-41 and 43 (42 is context)
    (change,), created = parse_patch(PATCH)
    assert created == [] and change.path == "pkg/mod.py"
    assert change.lines == (12, 13, 14, 30, 40, 41, 43)
    assert ranges(change) == [(12, 14), (30, 30), (40, 41), (43, 43)]
