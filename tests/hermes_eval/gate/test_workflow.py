"""The shipped nightly workflow: its cache keys follow code identity, and the gate history persists."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def _steps() -> list[dict]:
    workflow = yaml.safe_load((ROOT / ".github/workflows/nightly.yml").read_text())
    return workflow["jobs"]["gate"]["steps"]


def _cache_step(path: str) -> dict:
    found = [s for s in _steps() if s.get("uses", "").startswith("actions/cache") and s["with"]["path"] == path]
    assert len(found) == 1, f"expected one cache step for {path}"
    return found[0]


def test_artifact_cache_key_hashes_every_code_package() -> None:
    """A code change must start a new .cache entry: every project package is in the key."""
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
    key = _cache_step(".cache")["with"]["key"]
    hashed = re.search(r"hashFiles\(([^)]*)\)", key).group(1)
    for package in packages:
        assert f"'{package}/**'" in hashed, f"{package} missing from the .cache key"
    assert "'conf/**'" in hashed and "'pyproject.toml'" in hashed


def test_gate_history_is_restored_before_the_gate_and_saved_per_run() -> None:
    steps = _steps()
    history = _cache_step("reports/gate.sqlite")
    old = _cache_step("reports/history.sqlite")  # its old name, restored (never saved) for one release
    gate_index = next(i for i, s in enumerate(steps) if "make gate" in s.get("run", ""))
    assert steps.index(history) < gate_index and steps.index(old) < gate_index
    assert old["uses"].startswith("actions/cache/restore@")
    # a cache entry is immutable: a fixed key would keep the first night's history forever
    assert "github.run_id" in history["with"]["key"]
    assert history["with"]["key"].startswith(history["with"]["restore-keys"])
