"""make test's scheduling groups (tests/conftest.py GROUPS) name files that exist, and every test file that
runs ranx's compiled kernels is in the ranx group: one left out compiles them again on the other worker."""
from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import GROUPS

ROOT = Path(__file__).resolve().parents[1]
USES_RANX = re.compile(r'^\s*(from ranx\b|import ranx\b)|importorskip\("ranx"\)|\bRanxFusion\(|\branx_compare\(|'
                       r'\branx_optimize\(|strategy=ranx', re.M)


def test_every_grouped_file_exists():
    missing = [f for files in GROUPS.values() for f in files if not (ROOT / f).is_file()]
    assert not missing, missing


def test_every_test_file_running_ranx_is_in_its_group():
    users = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")
             if p != Path(__file__) and USES_RANX.search(p.read_text(encoding="utf-8"))}
    assert len(users) >= 8  # the pattern still finds them
    assert sorted(users - set(GROUPS["ranx"])) == []
