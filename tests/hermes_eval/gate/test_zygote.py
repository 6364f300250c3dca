"""Probes forked from the zygote: each a new process, child of the zygote, built from its own tree's code (the
zygote imported libraries only), timing what a freshly started probe times; a preload that imports the project
is refused, and a probe that fails says so."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from hermes_eval.config.compose import compose
from hermes_eval.gate.against_ref import _paths, _query_texts
from hermes_eval.gate.interleave import BOOT, HARNESS, ROLES, Probe, ProbeError, measure_interleaved, probe_env
from hermes_eval.gate.spec import PairedDesign, load_spec
from hermes_eval.gate.zygote import Zygote, ZygoteError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bm25_arm():
    spec = load_spec(ROOT / "conf" / "gate" / "smoke.yaml")
    arm = spec.arm("bm25")
    first = compose([*spec.common, *arm.overrides, f"paths.cache={ROOT / '.cache'}"])
    return {"bm25": [*spec.common, *arm.overrides, *_paths(first)]}, _query_texts(first)[:6]


def _parent_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")))


def test_a_forked_probe_is_a_new_child_of_the_zygote_and_answers_the_protocol(bm25_arm):
    arms, queries = bm25_arm
    with tempfile.TemporaryFile() as log:
        zygote = Zygote(["numpy", "no_such_library_here"], HARNESS, probe_env(None), ROOT, log, BOOT)
        try:
            assert zygote.loaded == ["numpy"]  # a library the environment lacks is left to the probes
            pids = []
            for _ in range(2):
                probe = Probe("head", ROOT, log, zygote)
                probe.send({"protocol": 1, "arms": arms, "queries": queries, "warmup": 1})
                ready = probe.receive()
                assert ready["ready"] and ready["pid"] == probe.pid and _parent_of(probe.pid) == zygote.pid
                timed = (probe.send({"arm": "bm25", "queries": [0, 1, 2]}), probe.receive())[1]
                assert len(timed["total"]) == 3 and all(ns > 0 for ns in timed["total"])
                probe.close()
                pids.append(probe.pid)
            assert len(set(pids)) == 2 and zygote.pid not in pids
        finally:
            zygote.close()
        assert zygote.proc.returncode == 0


def test_each_probe_runs_its_own_trees_code(bm25_arm, tmp_path):
    """A tree whose build step fails with a marker: the forked probe reports that tree's failure, and a
    probe of this tree from the same zygote builds."""
    arms, queries = bm25_arm
    other = tmp_path / "other"
    for part in ("hermes_eval", "retrievers", "conf"):
        shutil.copytree(ROOT / part, other / part, ignore=shutil.ignore_patterns("__pycache__"))
    probe_py = other / "hermes_eval" / "gate" / "probe.py"
    text = probe_py.read_text()
    marker = '    """Each arm\'s built pipeline and search depth, through this tree\'s own stages."""\n'
    assert text.count(marker) == 1
    probe_py.write_text(text.replace(marker, marker + '    raise RuntimeError("planted in the other tree")\n'))
    with tempfile.TemporaryFile() as log:
        zygote = Zygote(["numpy"], HARNESS, probe_env(None), ROOT, log, BOOT)
        try:
            theirs = Probe("base", other, log, zygote)
            theirs.send({"protocol": 1, "arms": arms, "queries": queries, "warmup": 0})
            with pytest.raises(ProbeError, match="planted in the other tree"):
                theirs.receive()
            theirs.close()
            mine = Probe("head", ROOT, log, zygote)
            mine.send({"protocol": 1, "arms": arms, "queries": queries, "warmup": 0})
            assert mine.receive()["ready"]
            mine.close()
        finally:
            zygote.close()


def test_a_preload_that_imports_the_project_is_refused():
    with tempfile.TemporaryFile() as log, pytest.raises(ZygoteError, match="imported the project"):
        Zygote(["hermes_eval.core"], HARNESS, probe_env(None), ROOT, log, BOOT)


def test_interleaved_rounds_from_the_zygote_time_every_role(bm25_arm, monkeypatch):
    """Every probe of the rounds was forked by the zygote (not started as a new interpreter), a new one each."""
    from hermes_eval.gate import interleave

    forked: list[int] = []

    class Counting(Zygote):
        def fork(self, tree, log):
            pid, stdin, stdout = super().fork(tree, log)
            forked.append(pid)
            return pid, stdin, stdout

    monkeypatch.setattr(interleave, "Zygote", Counting)
    arms, queries = bm25_arm
    design = PairedDesign(rounds=2, block=3, warmup=1, max_queries=6, preload=("numpy",))
    timings = measure_interleaved({r: ROOT for r in ROLES}, {r: arms for r in ROLES}, queries, design)
    pids = [pid for role in ROLES for pid in timings.pids[role]]
    assert len(set(pids)) == 6 and sorted(pids) == sorted(forked)
    for role in ROLES:
        assert timings.ns[role]["bm25"]["total"].shape == (2, 6) and (timings.ns[role]["bm25"]["total"] > 0).all()


@pytest.mark.parametrize("overrides,models", [(["fusion.dense_weight=0.0"], False), ([], True),
                                              (["fusion.dense_weight=1.0"], True),
                                              (["fusion.dense_weight=0.0", "reranker=cross_encoder"], True)])
def test_the_preload_is_for_arms_that_load_a_model(overrides, models):
    """A gate whose timed arms are all lexical starts its probes without the zygote (torch for nothing)."""
    from hermes_eval.gate.against_ref import loads_models

    spec = load_spec(ROOT / "conf" / "gate" / "smoke.yaml")
    assert loads_models(compose([*spec.common, *overrides])) is models
