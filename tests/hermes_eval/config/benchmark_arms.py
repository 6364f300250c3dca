"""Every arm of every benchmark experiment, composed: its sweep overrides, a digest of its composed
config (unresolved: interpolations as written, keys in composition order) and its config hash.

    .venv/bin/python tests/hermes_eval/config/benchmark_arms.py [--write] [--diff OTHER.json]

Run before and after a change of conf/ (or of how overlays and experiments are made): the arms and
their configs must stay the same, so every run keeps its config hash. ``--write`` stores the
snapshot next to this file (benchmark_arms.json), which ``test_benchmark_arms.py`` compares with.
Config hashes need the manifests of the imported sets that ``corpus=imported`` reads: the script
writes stand-ins (fixed made-up sources) in a temporary datasets folder, the same each time.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SNAPSHOT = HERE / "benchmark_arms.json"
EXPERIMENTS = ("benchmarks", "repoeval", "swebench", "swebench_protocols", "swebench_dense",
               "swebench_dense_functions", "swebench_dense_mteb", "protocols", "swebench_mteb", "swebench_embedders")
# the environment the overlays' ${oc.env:...} read, fixed so that hashes do not depend on the caller's
ENV = {"HERMES_MIRRORS": "/mirrors", "HERMES_BENCH_DATA": "/bench"}


def _sweep_params(experiment: str) -> dict[str, str]:
    """``hydra.sweeper.params`` of ``experiment`` as Hydra composes it."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.config.compose import compose as project_compose

    project_compose([f"experiment={experiment}"])  # what it registers first (the benchmark configs), then
    GlobalHydra.instance().clear()  # Hydra's own compose, which can return the hydra node
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"experiment={experiment}"], return_hydra_config=True)
    return {str(k): str(v) for k, v in (cfg.hydra.sweeper.params or {}).items()}


def _arms(params: dict[str, str]) -> list[list[str]]:
    """The sweep's jobs in Hydra's basic sweeper order (the product of the params, first key outermost)."""
    keys = list(params)
    values = [params[k].split(",") for k in keys]
    return [[f"{k}={v}" for k, v in zip(keys, combo)] for combo in itertools.product(*values)]


def _stand_in_manifests(datasets: Path, names: set[str]) -> None:
    for name in sorted(names):
        (datasets / name).mkdir(parents=True, exist_ok=True)
        (datasets / name / "manifest.json").write_text(json.dumps(
            {"corpus_sources": [f"/stand-in/{name}"], "corpus_exclude": ["*/tests/*"], "corpus_languages": ["python"]}))


def snapshot(configs: dict | None = None) -> dict:
    """{experiment: {"params": ..., "arms": [{"overrides", "config_sha", "config_hash"}]}}. ``configs``, when
    given, receives each arm's composed config as hashed for ``config_sha``: {(experiment, overrides):
    the container}, so that a caller checking those configs against another oracle composes nothing again."""
    saved = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    try:
        return _compose_all(configs)
    finally:
        for k, v in saved.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v


def _compose_all(configs: dict | None = None) -> dict:
    from omegaconf import OmegaConf

    from hermes_eval.config.compose import compose
    from hermes_eval.config.identity import config_hash

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        datasets = Path(tmp) / "datasets"
        for experiment in EXPERIMENTS:
            params = _sweep_params(experiment)
            arms = []
            for overrides in _arms(params):
                cfg = compose([f"experiment={experiment}", *overrides])
                container = OmegaConf.to_container(cfg, resolve=False)
                raw = json.dumps(container)  # key order kept
                if configs is not None:
                    configs[(experiment, tuple(overrides))] = container
                _stand_in_manifests(datasets, {str(cfg.queryset.name)})
                # the same config with paths.datasets pointing at the stand-ins: a leaf Hydra sets after it merged
                # the defaults (nothing composed reads it; the interpolations reading it resolve when hashed), so
                # setting it on the composed config is what a second compose with the override returned, at half
                # the cost (a compose is ~0.25 s; 107 of them were half this file's time)
                OmegaConf.update(cfg, "paths.datasets", str(datasets), merge=False)
                arms.append({"overrides": overrides, "config_sha": hashlib.sha256(raw.encode()).hexdigest()[:16],
                             "config_hash": config_hash(cfg)})
            out[experiment] = {"params": params, "arms": arms}
    return out


def differences(old: dict, new: dict) -> list[str]:
    """One line per experiment or arm that differs."""
    lines = []
    for exp in sorted(set(old) | set(new)):
        a, b = old.get(exp), new.get(exp)
        if a is None or b is None:
            lines.append(f"{exp}: only in {'new' if a is None else 'old'}")
            continue
        if a["params"] != b["params"]:
            lines.append(f"{exp}: sweep params {a['params']} -> {b['params']}")
        for x, y in itertools.zip_longest(a["arms"], b["arms"]):
            if x != y:
                lines.append(f"{exp}: arm {x} -> {y}")
    return lines


def main(argv: list[str]) -> int:
    snap = snapshot()
    n = sum(len(e["arms"]) for e in snap.values())
    if "--write" in argv:
        SNAPSHOT.write_text(json.dumps(snap, indent=1) + "\n")
        print(f"{SNAPSHOT}: {n} arms of {len(snap)} experiments")
        return 0
    other = Path(argv[argv.index("--diff") + 1]) if "--diff" in argv else SNAPSHOT
    diff = differences(json.loads(other.read_text()), snap)
    print("\n".join(diff) or f"{n} arms of {len(snap)} experiments: configs and config hashes equal to {other}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[2]))
    sys.exit(main(sys.argv[1:]))
