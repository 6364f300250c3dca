"""The committed baseline: read (failing clearly when missing or corrupt) and rewrite."""
from __future__ import annotations

import getpass
import json
import os
import time
from pathlib import Path

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.core.errors import UserError


class BaselineError(UserError):
    """The baseline cannot be used: the gate exits 2 (could not evaluate)."""


def baseline_path(folder: Path, gate: str) -> Path:
    return folder / f"{gate}.json"


def read_baseline(folder: Path, gate: str) -> dict:
    path = baseline_path(folder, gate)
    if not path.exists():
        raise BaselineError(f"baseline {path} is missing: create it with `hermes-eval gate "
                            f"--update-baseline --reason \"...\"`")
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BaselineError(f"baseline {path} is corrupt ({type(exc).__name__}): restore it from git or "
                            f"regenerate it with --update-baseline") from None
    if not isinstance(data, dict) or not isinstance(data.get("arms"), dict):
        raise BaselineError(f"baseline {path} has no 'arms' mapping: restore it from git or regenerate it")
    return data


def who() -> str:
    for var in ("GITHUB_ACTOR", "USER"):
        if os.environ.get(var):
            return os.environ[var]
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def write_baseline(folder: Path, gate: str, snapshot: dict, reason: str) -> Path:
    if not reason.strip():
        raise UserError("--update-baseline needs --reason \"why the numbers changed\"")
    bad = [a for a, v in snapshot["arms"].items() if v["status"] != "ok"]
    if bad:
        raise UserError(f"cannot update the baseline: arms {bad} failed; fix them first")
    data = dict(snapshot, updated={"who": who(), "why": reason, "when": time.strftime(
        "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": snapshot.get("commit"), "dirty": snapshot.get("dirty")})
    path = baseline_path(folder, gate)
    atomic_write_bytes(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    return path
