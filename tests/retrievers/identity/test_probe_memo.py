"""Probe digests kept between the program's processes: read back under the same code, computed afresh when a
project file, the probed config or the switch changes, never for a part outside the project, and the identities a
run records are the same either way."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from retrievers.identity import probe_memo

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def memo(tmp_path, monkeypatch):
    monkeypatch.setenv(probe_memo.ENV, str(tmp_path / "probes"))
    monkeypatch.setattr(probe_memo, "_on", True)
    return tmp_path / "probes"


def _counting():
    calls = []
    return calls, lambda: calls.append(1) or ["ranked", len(calls)]


def test_read_back_under_the_same_code_and_config(memo):
    calls, compute = _counting()
    assert probe_memo.remembered("leg", '{"k1": 1.2}', ["retrievers.sparse.rank_bm25"], compute) == ["ranked", 1]
    assert probe_memo.remembered("leg", '{"k1": 1.2}', ["retrievers.sparse.rank_bm25"], compute) == ["ranked", 1]
    assert probe_memo.remembered("leg", '{"k1": 1.5}', ["retrievers.sparse.rank_bm25"], compute) == ["ranked", 2]
    assert probe_memo.remembered("chunker", '{"k1": 1.2}', ["retrievers.sparse.rank_bm25"], compute) == ["ranked", 3]
    assert len(calls) == 3 and len(list(memo.glob("*.json"))) == 3


def test_off_outside_the_program_for_parts_of_ones_own_and_by_the_switch(memo, monkeypatch):
    calls, compute = _counting()
    for _ in range(2):
        probe_memo.remembered("leg", "{}", ["mypackage.myindex"], compute)  # a user's part: its files are not keyed
    assert len(calls) == 2
    monkeypatch.setenv(probe_memo.ENV, "off")
    for _ in range(2):
        probe_memo.remembered("leg", "{}", ["retrievers.sparse.rank_bm25"], compute)
    assert len(calls) == 4
    monkeypatch.setenv(probe_memo.ENV, str(memo))
    monkeypatch.setattr(probe_memo, "_on", False)  # a process that imports the project: parts may be patched
    for _ in range(2):
        probe_memo.remembered("leg", "{}", ["retrievers.sparse.rank_bm25"], compute)
    assert len(calls) == 6 and not list(memo.glob("*.json"))


def test_any_change_to_a_project_file_gives_another_key(tmp_path, monkeypatch):
    root = tmp_path / "retrievers"
    (root / "sparse").mkdir(parents=True)
    part = root / "sparse" / "part.py"
    part.write_text("K1 = 1.2\n")
    monkeypatch.setattr(probe_memo, "_roots", lambda: [root])
    keys = []
    for edit in (None, "K1 = 1.5\n", "K1 = 1.55\n"):  # the same size, then another size
        if edit is not None:
            part.write_text(edit)
            os.utime(part, ns=(1, len(keys)))  # a change time of its own, whatever the clock's grain
        probe_memo.code_key.cache_clear()
        keys.append(probe_memo.code_key())
    (root / "sparse" / "new.py").write_text("")
    probe_memo.code_key.cache_clear()
    keys.append(probe_memo.code_key())
    probe_memo.code_key.cache_clear()
    assert len(set(keys)) == 4


def test_a_torn_entry_is_computed_again(memo):
    calls, compute = _counting()
    probe_memo.remembered("leg", "{}", ["retrievers.x"], compute)
    [entry] = memo.glob("*.json")
    entry.write_text("{torn")
    assert probe_memo.remembered("leg", "{}", ["retrievers.x"], compute) == ["ranked", 2]
    assert json.loads(entry.read_text()) == {"value": ["ranked", 2]}


def test_the_program_records_the_same_identities_with_and_without_it(tmp_path):
    parts = []
    for i, setting in enumerate((str(tmp_path / "probes"), str(tmp_path / "probes"), "off")):
        words = [sys.executable, "-m", "hermes_eval.cli.main", "run", "retriever=bm25", "chunker=lines",
                 f"paths.runs={tmp_path / f'runs{i}'}", f"paths.cache={tmp_path / f'cache{i}'}", "progress=off",
                 "bootstrap=50"]
        proc = subprocess.run(words, cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, probe_memo.ENV: setting})
        assert proc.returncode == 0, proc.stderr[-2000:]
        parts.append(json.loads(next((tmp_path / f"runs{i}").glob("*/record.json")).read_text())["parts"])
    assert parts[0] == parts[1] == parts[2]
    assert {"chunker", "sparse"} <= set(parts[0]) and len(list((tmp_path / "probes").glob("*.json"))) >= 3
