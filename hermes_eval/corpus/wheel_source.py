"""``wheel:NAME==VERSION``: a release's wheel from the package index (``pip download --only-binary``),
unpacked once into the cache: the package's source as it shipped, for any Python the release
supported (the newest first) on Linux x86-64. Its repo name is ``name@version``, so releases of one
package side by side get their own prefixes (SWE-bench's release substitutes, ``swebench_releases.py``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.artifacts import Fetched, fetch_once

PYTHONS = ("3.12", "3.11", "3.10", "3.9", "3.8", "3.7", "3.6", "3.5")
PLATFORMS = ("manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64", "any")


def parse(spec: str) -> tuple[str, str]:
    req = spec.split(":", 1)[1]
    if "==" not in req:
        raise UserError(f"corpus source {spec!r} must pin a version: use wheel:NAME==VERSION")
    name, version = req.split("==", 1)
    return name, version


def repo_of(name: str, version: str) -> str:
    """The repo name (and snapshot prefix) of a release: ``django@3.0``."""
    return f"{name.lower()}@{version}"


def fetch(spec: str, cache: Path, unpack) -> tuple[str, str, Fetched]:
    name, version = parse(spec)

    def download(into: Path) -> None:
        last = "no output"
        for python in PYTHONS:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--only-binary", ":all:",
                   "--python-version", python, *(w for p in PLATFORMS for w in ("--platform", p)),
                   "-d", str(into), f"{name}=={version}"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode == 0:
                return
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"corpus source {spec!r}: no wheel for Python {PYTHONS[-1]}-{PYTHONS[0]} on Linux x86-64 "
                        f"({last}); check the name and version")

    return name, version, fetch_once(spec, cache / "wheel" / f"{name}-{version}", download, unpack)
