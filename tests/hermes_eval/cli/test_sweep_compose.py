"""A sweep job is composed once: the kept composition equals Hydra's own, the sweeper's check, the launcher's
plan and the job share it, a worker gets the plain loader, and a real sweep's jobs run from it (each its own
number, overrides and record, equal to the same arm run alone)."""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from hermes_eval.cli.sweep_compose import ComposeOnce, compose_once
from hermes_eval.config.compose import CONF_DIR

JOBS = [["fusion.dense_weight=0.0", "chunker=lines"], ["fusion.dense_weight=0.0", "chunker=python_ast"]]


@pytest.fixture
def loader_and_master():
    """Hydra's real config loader for conf/, and the master config of a multirun (hydra node included)."""
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.types import RunMode

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        loader = GlobalHydra.instance().config_loader()
        yield loader, loader.load_configuration("config", overrides=[], run_mode=RunMode.MULTIRUN)
    GlobalHydra.instance().clear()


class Counting:
    """A loader that counts its compositions (and is what it wraps otherwise)."""

    def __init__(self, loader):
        self.loader, self.calls = loader, 0

    def load_sweep_config(self, master, overrides):
        self.calls += 1
        return self.loader.load_sweep_config(master, overrides)


def test_each_job_is_composed_once_and_equals_hydras_own(loader_and_master):
    loader, master = loader_and_master
    counting = Counting(loader)
    once = ComposeOnce(counting)
    assert once.composed(master, JOBS[0]) is None
    first = [once.load_sweep_config(master, list(o)) for o in JOBS]
    again = [once.load_sweep_config(master, list(o)) for o in JOBS]  # the launcher after the sweeper's check
    sent = [pickle.loads(once.composed(master, o)) for o in JOBS]  # what a worker gets
    assert counting.calls == 2
    for overrides, *copies in zip(JOBS, first, again, sent):
        fresh = loader.load_sweep_config(master, list(overrides))
        assert all(OmegaConf.to_container(c) == OmegaConf.to_container(fresh) for c in copies)
        assert len({id(c) for c in copies}) == 3  # each caller its own copy
    assert first[0].chunker != first[1].chunker
    from omegaconf import open_dict

    with open_dict(again[0]):  # one caller's change (the launcher drops hydra's node) reaches no other
        del again[0]["hydra"]
    assert "hydra" in pickle.loads(once.composed(master, JOBS[0])) and "hydra" in first[0]
    other = OmegaConf.create(OmegaConf.to_container(master))  # another master: composed on its own
    assert once.composed(other, JOBS[0]) is None
    once.forget()
    assert once.composed(master, JOBS[0]) is None


def test_a_worker_gets_the_plain_loader_and_the_context_is_wrapped_once(loader_and_master):
    from hydra.types import HydraContext

    loader, _ = loader_and_master
    context = HydraContext(config_loader=loader, callbacks=None)
    once = compose_once(context)
    assert context.config_loader is once and compose_once(context) is once  # sweeper and launcher share it
    assert once.get_search_path() is loader.get_search_path()  # the rest is the loader's
    assert type(pickle.loads(pickle.dumps(once))) is type(loader)


def _cli(*words: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *words], cwd=cwd, capture_output=True,
                          text=True, timeout=900)


@pytest.mark.long
def test_a_sweep_runs_each_job_from_its_composition_as_the_arm_alone(tmp_path):
    common = ["corpus.name=requests_src", "corpus.sources=[pkg:requests]", "queryset.generator.max_queries=10",
              "fusion.dense_weight=0.0", "bootstrap=20", "warmup=1", f"paths.datasets={tmp_path / 'ds'}",
              f"paths.cache={tmp_path / 'cache'}", "progress=off"]
    swept = _cli("sweep", *common, "chunker=lines,python_ast", "hydra.launcher.n_jobs=2",
                 f"paths.runs={tmp_path / 'swept'}", cwd=tmp_path)
    assert swept.returncode == 0, swept.stderr[-3000:]
    [sweep_dir] = (tmp_path / "cache" / "hydra").glob("multirun-*")
    assert sorted(p.name for p in sweep_dir.iterdir() if p.is_dir()) == ["0", "1"]  # each job its own number
    for chunker in ("lines", "python_ast"):
        alone = _cli("run", *common, f"chunker={chunker}", f"paths.runs={tmp_path / ('alone-' + chunker)}", cwd=tmp_path)
        assert alone.returncode == 0, alone.stderr[-3000:]
        [a] = [json.loads(p.read_text()) for p in (tmp_path / f"alone-{chunker}").glob("*/record.json")]
        [s] = [r for r in (json.loads(p.read_text()) for p in (tmp_path / "swept").glob("*/record.json"))
               if r["config_hash"] == a["config_hash"]]
        assert {**s["config"], "paths": None} == {**a["config"], "paths": None}  # the runs folders differ
        assert {k: v["mean"] for k, v in s["metrics"].items()} == {k: v["mean"] for k, v in a["metrics"].items()}
