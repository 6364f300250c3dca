"""Beyond joblib: the same sweep on a real local Ray cluster and through submitit's local
executor, with the cache and runs/ on a shared path."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.long  # minutes of work: scheduled first (tests/conftest.py)

BIN = Path(sys.executable).parent
SWEEP = ["fusion.dense_weight=0.0", "chunker=lines,python_ast", "corpus.name=req", "corpus.sources=[pkg:requests]",
         "queryset.generator.max_queries=20", "warmup=1", "bootstrap=100"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _sweep(tmp: Path, *extra: str, env: dict) -> subprocess.CompletedProcess:
    paths = [f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    return subprocess.run([str(BIN / "hermes-eval"), "sweep", *SWEEP, *paths, *extra], capture_output=True,
                          text=True, timeout=900, env=env, cwd=tmp)


def _records(tmp: Path) -> dict[str, dict]:
    out = {}
    for p in (tmp / "runs").glob("*/record.json"):
        rec = json.loads(p.read_text())
        out[rec["chunker"]] = rec
    return out


@pytest.fixture(scope="module")
def ray_cluster():
    pytest.importorskip("ray", reason="the `ray` extra is not installed (`make test` installs it: make test-setup)")
    port = _free_port()
    # single-machine mode: Ray keeps every address on loopback instead of the node's own IP
    env = dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", RAY_USAGE_STATS_ENABLED="0")
    ray = str(BIN / "ray")
    start = subprocess.run([ray, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
                            "--include-dashboard=false", "--disable-usage-stats", "--num-cpus=2"],
                           capture_output=True, text=True, timeout=180, env=env)
    assert start.returncode == 0, start.stderr[-2000:]
    env["RAY_ADDRESS"] = f"127.0.0.1:{port}"
    yield env
    subprocess.run([ray, "stop", "--force"], capture_output=True, timeout=120, env=env)


def test_sweep_on_a_local_ray_cluster_matches_joblib(ray_cluster, tmp_path):
    ray_dir, local_dir = tmp_path / "ray", tmp_path / "local"
    ray_dir.mkdir()
    local_dir.mkdir()
    proc = _sweep(ray_dir, "hydra/launcher=ray_cluster", env=ray_cluster)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Connected to Ray cluster" in proc.stderr + proc.stdout
    via_ray = _records(ray_dir)
    assert set(via_ray) == {"lines", "python_ast"} and all(r["status"] == "ok" for r in via_ray.values())
    proc = _sweep(local_dir, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-3000:]
    local = _records(local_dir)
    for chunker, rec in via_ray.items():
        # exact across processes by construction: one machine, the same environment (SIMD paths), and
        # BM25 only (fusion.dense_weight=0.0 drops the dense leg, so no embedding enters a metric)
        assert rec["metrics"] == local[chunker]["metrics"]


def test_sweep_through_submitit_local_executor(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher",
                        reason="the `slurm` extra is not installed (`make test` installs it: make test-setup)")
    proc = _sweep(tmp_path, "hydra/launcher=submitit_local", "hydra.launcher.timeout_min=15", env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-3000:]
    recs = _records(tmp_path)
    assert set(recs) == {"lines", "python_ast"} and all(r["status"] == "ok" for r in recs.values())
    shutil.rmtree(tmp_path / "runs")


def test_shards_on_a_local_ray_cluster_merge_into_the_unsharded_run(ray_cluster, snapshot_set):
    """A snapshot set's run split into three shards, each a Ray task sharing runs/ and the cache; the
    shard that writes the last part merges, and the record is the unsharded run's (sameness tool)."""
    from hermes_eval.cli.main import main
    from hermes_eval.record.sameness import runs_diffs

    tmp, arm = snapshot_set
    assert main(["run", *arm, f"paths.runs={tmp / 'runs'}"]) == 0
    whole = (tmp / "runs").rename(tmp / "whole")
    proc = subprocess.run([str(BIN / "hermes-eval"), "sweep", *arm, f"paths.runs={tmp / 'runs'}",
                           "shard=0/3,1/3,2/3", "hydra/launcher=ray_cluster"], capture_output=True, text=True,
                          timeout=900, env=ray_cluster, cwd=tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Connected to Ray cluster" in proc.stderr + proc.stdout
    n, diffs = runs_diffs(whole, tmp / "runs")
    assert n == 1 and diffs == []


def _vectors(cache: Path) -> dict[tuple[str, str], bytes]:
    """(model key, text sha) -> the vector's bytes, every row of a run's embedding cache."""
    import sqlite3

    with sqlite3.connect(cache / "embeddings.sqlite") as db:
        return {(m, s): v for m, s, v in db.execute("SELECT model, sha, vec FROM vectors")}


def test_embedding_on_a_local_ray_cluster_matches_one_process(ray_cluster, tmp_path):
    """A dense-only run whose documents the cluster's two workers embed (scale_out=ray), slice by slice,
    into the run's embedding cache: every vector is bit for bit the one-process run's (each worker encodes
    the slices one process cuts, in the same batches), so run.trec is byte-identical. Slices cut one
    text apart (planted: slice 2's first text moved to slice 1) change the moved text's vector in its low
    bits (batches are padded per batch), which run.trec, holding ranks, does not show: the vectors are
    compared too. ~140 s wall on 2 busy cores (load 12), ~60 s CPU: cluster start, two runs, two workers."""
    from hermes_eval.cli.main import main

    arm = ["retriever=exact", "corpus.name=req", "corpus.sources=[pkg:requests]", "queryset.generator.max_queries=10",
           "warmup=1", "bootstrap=20", "progress=off", "index_cache=false", f"paths.datasets={tmp_path / 'ds'}",
           f"paths.cache={tmp_path / 'c'}",  # corpus, chunks and query set made once; vectors apart:
           # half MiniLM's window (cheaper; the planted shift still shows) and the cut into slices, both the same
           # in both runs: 3 slices of the 304 chunks
           "embedder.max_seq_length=128", "+embedder.checkpoint=128"]
    runs = {}
    for name in ("one", "ray"):
        words = ["run", *arm, f"paths.runs={tmp_path / name}", f"embedder.cache_dir={tmp_path / name}"]
        if name == "one":
            assert main(words) == 0
        else:  # scale_out=ray joins the cluster at RAY_ADDRESS (conf/scale_out/ray.yaml)
            proc = subprocess.run([str(BIN / "hermes-eval"), *words, "scale_out=ray"], capture_output=True, text=True,
                                  timeout=600, env=ray_cluster, cwd=tmp_path)
            assert proc.returncode == 0, proc.stderr[-3000:]
        [runs[name]] = (tmp_path / name).glob("*/record.json")
    one, ray = (json.loads(runs[n].read_text())["embeddings"] for n in ("one", "ray"))
    assert ray["scale_out"] == {"backend": "ray", "tasks": 3, "workers": 2}  # both workers took slices
    assert ray["computed"] == one["computed"] == 304 and ray["device"] == one["device"] == "cpu"
    assert runs["one"].parent.name == runs["ray"].parent.name  # the same config hash: scale_out is not hashed
    vectors = _vectors(tmp_path / "one")
    assert len(vectors) == 304 and _vectors(tmp_path / "ray") == vectors
    assert (runs["ray"].parent / "run.trec").read_bytes() == (runs["one"].parent / "run.trec").read_bytes()
