"""The baseline tree: a commit of this repository unpacked once into the cache, refused (one line,
with the fix) when the ref is unknown or predates the latency probe."""
from __future__ import annotations

import subprocess

import pytest

from hermes_eval.gate.trees import PROBE, TreeError, baseline_tree, resolve, this_tree

ROOT = this_tree()


def _first_commit_with_probe() -> str:
    out = subprocess.run(["git", "log", "--format=%H", "--diff-filter=A", "--", PROBE.as_posix()], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return out[-1]


def test_a_commit_is_unpacked_once_and_reused(tmp_path):
    commit = _first_commit_with_probe()
    tree = baseline_tree(ROOT, commit, tmp_path)
    assert (tree / PROBE).exists() and (tree / "retrievers" / "pipeline.py").exists()
    stamp = (tree / PROBE).stat().st_mtime_ns
    assert baseline_tree(ROOT, commit, tmp_path) == tree and (tree / PROBE).stat().st_mtime_ns == stamp
    assert not list((tmp_path / "gate-trees").glob(".*tmp*"))


def test_a_commit_before_the_probe_is_refused_with_the_fix(tmp_path):
    before = subprocess.run(["git", "rev-parse", f"{_first_commit_with_probe()}~1"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    with pytest.raises(TreeError, match="predates paired latency.*--against a newer ref"):
        baseline_tree(ROOT, before, tmp_path)
    assert not (tmp_path / "gate-trees" / before).exists()


def test_an_unknown_ref_names_the_fix():
    with pytest.raises(TreeError, match="not a commit.*--against REF"):
        resolve(ROOT, "no-such-branch-anywhere")
