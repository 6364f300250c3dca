"""Corpus sources: a spec string -> (repo name, root folder, files to read under it).

Forms: a folder, ``pkg:NAME`` (an installed distribution), ``pypi:NAME==VERSION``,
``npm:NAME@VERSION``, ``deb:PACKAGE=VERSION`` (downloaded once into the cache, see
``artifacts.py``) and ``git:PATH@COMMIT``."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.artifacts import fetch_once

@dataclass(frozen=True)
class Source:
    """A resolved source: ``root`` is the folder paths are relative to; ``only`` restricts the
    walk to those files (an installed distribution's RECORD), ``None`` walks the whole root."""

    spec: str
    repo: str
    root: Path
    only: tuple[Path, ...] | None = None
    # prepended to every path; None: the repo name when the corpus has several sources
    prefix: str | None = None
    # what was downloaded, for the corpus manifest ("sha256:<hex> <file name>"); None for local sources
    fingerprint: str | None = None
    # folders under the root (relative, '/'-separated) never walked
    skip: tuple[str, ...] = ()
    # a git snapshot: the full sha whose tree is read from the repository at ``root`` (nothing unpacked)
    commit: str | None = None


FORMS = ("a folder, pkg:NAME, pypi:NAME==VERSION, wheel:NAME==VERSION, npm:NAME@VERSION, deb:PACKAGE=VERSION "
         "or git:PATH@COMMIT")


def _dir(spec: str, cache: Path) -> Source:
    root = Path(spec).expanduser()
    if not root.exists():
        raise UserError(f"corpus source {spec!r} does not exist: fix corpus.sources ({FORMS})")
    if not root.is_dir():
        raise UserError(f"corpus source {spec!r} is not a folder: fix corpus.sources")
    root = root.resolve()
    return Source(spec=spec, repo=root.name, root=root)


def _pkg(spec: str, cache: Path) -> Source:
    from importlib import metadata  # here, as the archive modules below: a git or folder run never needs them

    name = spec.split(":", 1)[1]
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        raise UserError(f"corpus source {spec!r}: distribution {name!r} is not installed; "
                        f"pip install it or use pypi:{name}==VERSION") from None
    files = [Path(dist.locate_file(f)) for f in (dist.files or [])
             if ".dist-info" not in str(f) and "__pycache__" not in str(f)
             and not str(f).startswith("..")]
    root = Path(dist.locate_file("")).resolve()
    return Source(spec=spec, repo=dist.metadata["Name"].lower(), root=root, prefix="",
                  only=tuple(sorted(f.resolve() for f in files if f.is_file())))


def _pypi(spec: str, cache: Path) -> Source:
    req = spec.split(":", 1)[1]
    if "==" not in req:
        raise UserError(f"corpus source {spec!r} must pin a version: use pypi:NAME==VERSION")
    name, version = req.split("==", 1)

    def download(into: Path) -> None:
        proc = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                               "-d", str(into), f"{name}=={version}"], capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise UserError(f"corpus source {spec!r}: pip download failed ({last}); check the "
                            f"name and version")

    got = fetch_once(spec, cache / "pypi" / f"{name}-{version}", download, _unpack)
    # a wheel unpacks like site-packages (top-level package folders), an sdist into NAME-VERSION/
    return Source(spec=spec, repo=name.lower(), root=got.root, prefix="", fingerprint=got.fingerprint)


def _npm(spec: str, cache: Path) -> Source:
    """``npm:NAME@VERSION``: the tarball's ``package/`` folder; prefixed with the name when the
    corpus has several sources."""
    from hermes_eval.corpus import npm_source

    name, got, root = npm_source.fetch(spec, cache)
    return Source(spec=spec, repo=name, root=root, fingerprint=got.fingerprint)


def _deb(spec: str, cache: Path) -> Source:
    """``deb:PACKAGE=VERSION``: the Go or Rust source tree of a -dev package (paths are import
    paths / crate folders, so no prefix is added), or the package's files without Debian's docs."""
    from hermes_eval.corpus import deb_source

    package, got = deb_source.fetch(spec, cache)
    root, repo, skip = deb_source.layout(got.root, package)
    return Source(spec=spec, repo=repo, root=root, prefix="" if not skip else None, fingerprint=got.fingerprint,
                  skip=skip)


def _unpack(archive: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if archive.suffix in (".whl", ".zip"):
        import zipfile

        with zipfile.ZipFile(archive) as z:
            for m in z.infolist():
                target = (out / m.filename).resolve()
                if out.resolve() in target.parents and not m.is_dir():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(z.read(m))
    else:
        import tarfile

        with tarfile.open(archive) as t:
            t.extractall(out, filter="data")


def _git(spec: str, cache: Path) -> Source:
    """``git:PATH@COMMIT``, read from the repository itself (``git_tree.py``); the repo name is
    ``NAME@COMMIT8`` so snapshots of one repository at several commits get distinct prefixes."""
    from hermes_eval.corpus import git_source

    path, commit = git_source.parse(spec)
    sha = git_source.resolve_commit(path, commit, spec)
    name = git_source.repo_name(path)
    return Source(spec=spec, repo=f"{name}@{sha[:8]}", root=path.resolve(), commit=sha)


def _wheel(spec: str, cache: Path) -> Source:
    """``wheel:NAME==VERSION``: a release's wheel (``wheel_source.py``), site-packages layout, repo
    ``name@version`` (the prefix when the corpus has several sources)."""
    from hermes_eval.corpus import wheel_source

    name, version, got = wheel_source.fetch(spec, cache, _unpack)
    return Source(spec=spec, repo=wheel_source.repo_of(name, version), root=got.root, fingerprint=got.fingerprint)


RESOLVERS: dict[str, Callable[[str, Path], Source]] = {"pkg": _pkg, "pypi": _pypi, "npm": _npm, "deb": _deb,
                                                        "git": _git, "wheel": _wheel}


def resolve(spec: str, cache: Path) -> Source:
    """Resolve one corpus spec; the scheme before ``:`` picks the resolver, else a folder."""
    scheme = spec.split(":", 1)[0] if ":" in spec and not Path(spec).exists() else ""
    return RESOLVERS.get(scheme, _dir)(spec, cache)

