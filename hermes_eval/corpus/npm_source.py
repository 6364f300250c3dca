"""``npm:NAME@VERSION``: a release from the npm registry, fetched with ``npm pack`` (the ordinary
client: registry, auth and proxy settings are npm's own) and unpacked from its tarball.

npm tarballs hold one top folder (``package/`` for almost every release); the corpus root is
that folder, so paths read ``lib/command.js``, ``src/index.ts``, ``Readme.md``."""
from __future__ import annotations

import re
import subprocess
import tarfile
from pathlib import Path

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.artifacts import Fetched, fetch_once, require_client
from hermes_eval.corpus.pinned_spec import PinnedSpec

# an exact release: 1.2.3 or 1.2.3-beta.1 (no ranges, tags or "latest")
EXACT_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
NAME = re.compile(r"^(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*$", re.IGNORECASE)
NPM_FIX = "install Node.js with npm (apt-get install npm) or use a folder or pypi: source"


# how an npm: source is written and checked (`SPEC.parse`)
SPEC = PinnedSpec("npm", "@", NAME, EXACT_VERSION, "an npm package name", "an exact version; pin one release",
                  "npm:commander@12.1.0", "1.2.3", "npm view {name} versions")


def cache_dir(cache: Path, name: str, version: str) -> Path:
    return cache / "npm" / f"{name.replace('/', '+')}-{version}"


def download(spec: str, name: str, version: str, into: Path) -> None:
    """``npm pack NAME@VERSION`` into ``into`` (the network step)."""
    npm = require_client(spec, "npm", NPM_FIX)
    into = into.resolve()
    proc = subprocess.run([npm, "pack", f"{name}@{version}", "--pack-destination", str(into), "--ignore-scripts",
                           "--loglevel=error"], capture_output=True, text=True, cwd=into)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()] or ["no output"]
        why = next((ln for ln in lines if "E404" in ln or "ETARGET" in ln or "notarget" in ln.lower()), lines[-1])
        raise UserError(f"corpus source {spec!r}: npm pack failed ({why.strip()}); check the name and "
                        f"version with `npm view {name} versions`")


def unpack(artifact: Path, out: Path) -> None:
    """The tarball's files under ``out`` (links and paths leaving it are refused by the data filter)."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(artifact) as t:
            t.extractall(out, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise UserError(f"{artifact}: not a readable npm tarball ({exc}); delete it to refetch") from None


def package_root(unpacked: Path) -> Path:
    """The tarball's single top folder (``package/``), else the unpacked folder itself."""
    tops = [p for p in unpacked.iterdir()]
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else unpacked


def fetch(spec: str, cache: Path) -> tuple[str, Fetched, Path]:
    """(package name, cache entry, corpus root) for ``spec``."""
    name, version = SPEC.parse(spec)
    got = fetch_once(spec, cache_dir(cache, name, version),
                     lambda into: download(spec, name, version, into), unpack)
    return name, got, package_root(got.root)
