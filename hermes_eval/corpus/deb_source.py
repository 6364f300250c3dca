"""``deb:PACKAGE=VERSION``: a Debian binary package, fetched with ``apt-get download`` (no
install, no root) and extracted with ``dpkg-deb -x``.

Debian ships library *sources* in its ``-dev`` packages: Go modules under
``usr/share/gocode/src/`` (``golang-*-dev``), Rust crates under ``usr/share/cargo/registry/``
(``librust-*-dev``). The corpus root is that tree, so paths read as Go import paths
(``github.com/gorilla/mux/mux.go``) or crate folders (``anyhow-1.0.69/src/lib.rs``), and the
package's Debian files (``usr/share/doc/*/copyright``, ``changelog.Debian.gz``) are not indexed.
A package with neither tree is indexed whole, without its Debian documentation folders."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.artifacts import Fetched, fetch_once, require_client
from hermes_eval.corpus.pinned_spec import PinnedSpec

# where -dev packages keep the sources they ship -> how many single folders down the repo name
# reaches: a Go import path (github.com/gorilla/mux) as deep as it goes, a crate folder one level
SOURCE_TREES: dict[str, int | None] = {"usr/share/gocode/src": None, "usr/share/cargo/registry": 1}
# never indexed when a package is read whole: Debian's own files about the package
DEBIAN_FILES: tuple[str, ...] = ("usr/share/doc", "usr/share/lintian", "usr/share/man", "usr/share/bug")
PACKAGE = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")
VERSION = re.compile(r"^(?:\d+:)?[0-9][A-Za-z0-9.+~-]*$")
APT_FIX = "this needs Debian's apt (apt-get) and dpkg-deb; use a folder, pypi: or npm: source elsewhere"


# how a deb: source is written and checked (`SPEC.parse`)
SPEC = PinnedSpec("deb", "=", PACKAGE, VERSION, "a Debian package name", "a Debian version; pin one",
                  "deb:librust-anyhow-dev=1.0.69-1", "1.2-3", "apt-cache policy {name}")


def cache_dir(cache: Path, package: str, version: str) -> Path:
    return cache / "deb" / f"{package}-{version.replace(':', '%3a')}"


def download(spec: str, package: str, version: str, into: Path) -> None:
    """``apt-get download PACKAGE=VERSION`` into ``into`` (the network step)."""
    apt = require_client(spec, "apt-get", APT_FIX)
    proc = subprocess.run([apt, "download", "-q", f"{package}={version}"], capture_output=True, text=True,
                          cwd=into)
    if proc.returncode != 0:
        errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("E:")] or \
            (proc.stderr.strip().splitlines() or ["no output"])[-1:]
        why = errors[0].removeprefix("E:").strip()
        raise UserError(f"corpus source {spec!r}: apt-get download failed ({why}); run `apt-get update`, "
                        f"or check the version with `apt-cache policy {package}`")


def unpack(artifact: Path, out: Path) -> None:
    """``dpkg-deb -x``: the package's files under ``out``, nothing installed."""
    dpkg = require_client(str(artifact), "dpkg-deb", APT_FIX)
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([dpkg, "-x", str(artifact), str(out)], capture_output=True, text=True)
    if proc.returncode != 0:
        why = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"{artifact}: dpkg-deb -x failed ({why}); delete it to refetch")


def _single_path(tree: Path, depth: int | None) -> str | None:
    """The path down ``tree`` while each folder holds exactly one folder (``github.com/gorilla/mux``),
    at most ``depth`` folders deep."""
    parts: list[str] = []
    here = tree
    while depth is None or len(parts) < depth:
        entries = [p for p in here.iterdir() if not p.name.startswith(".")]
        if len(entries) != 1 or not entries[0].is_dir():
            return "/".join(parts) or None
        here = entries[0]
        parts.append(here.name)
    return "/".join(parts) or None


def layout(unpacked: Path, package: str) -> tuple[Path, str, tuple[str, ...]]:
    """(corpus root, repo name, folders under the root never to walk) of an extracted package."""
    for rel, depth in SOURCE_TREES.items():
        tree = unpacked / rel
        if tree.is_dir():
            return tree, _single_path(tree, depth) or package.removesuffix("-dev"), ()
    return unpacked, package.removesuffix("-dev"), DEBIAN_FILES


def fetch(spec: str, cache: Path) -> tuple[str, Fetched]:
    """(package name, cache entry) for ``spec``."""
    package, version = SPEC.parse(spec)
    got = fetch_once(spec, cache_dir(cache, package, version),
                     lambda into: download(spec, package, version, into), unpack)
    return package, got
