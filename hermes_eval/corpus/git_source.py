"""``git:PATH@COMMIT``: a local clone or bare mirror at one commit, read with ``git archive`` (no
network, no work tree touched), unpacked once into the cache."""
from __future__ import annotations

import io
import logging
import subprocess
import tarfile
from pathlib import Path

from filelock import FileLock

from hermes_eval.core.errors import UserError

log = logging.getLogger(__name__)


def repo_name(path: Path) -> str:
    """``/m/psf+requests/repo`` -> ``requests``; ``/x/flask.git`` -> ``flask``."""
    parts = [p for p in path.resolve().parts if p not in ("/", ".git", "repo")]
    name = parts[-1] if parts else "repo"
    name = name[:-4] if name.endswith(".git") else name
    return name.split("+")[-1]


def parse(spec: str) -> tuple[Path, str]:
    """``git:PATH@COMMIT`` -> (path, commit); one clear line when either part is missing."""
    body = spec.split(":", 1)[1]
    if "@" not in body or not body.rsplit("@", 1)[1]:
        raise UserError(f"corpus source {spec!r}: write git:PATH@COMMIT (a local clone or mirror and a "
                        f"commit, tag or branch)")
    path, commit = body.rsplit("@", 1)
    return Path(path).expanduser(), commit


def resolve_commit(path: Path, commit: str, spec: str) -> str:
    """The full sha of ``commit`` in the repository at ``path``."""
    if not path.exists():
        raise UserError(f"corpus source {spec!r}: repository {path} does not exist; clone or mirror it "
                        f"there first")
    proc = subprocess.run(["git", "-C", str(path), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise UserError(f"corpus source {spec!r}: commit {commit!r} is not in {path}; fetch it into that "
                        f"repository or fix the commit")
    return proc.stdout.strip()


def unpack(path: Path, sha: str, dest: Path) -> Path:
    """``git archive`` of ``sha`` unpacked under ``dest`` (once, under a lock); the tree's root."""
    root, done = dest / "tree", dest / ".unpacked"
    dest.mkdir(parents=True, exist_ok=True)
    with FileLock(str(dest) + ".lock"):
        if not done.exists():
            log.info("git source %s@%s: unpacking into %s", path, sha[:12], root)
            proc = subprocess.run(["git", "-C", str(path), "archive", "--format=tar", sha], capture_output=True)
            if proc.returncode != 0:
                last = (proc.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
                raise UserError(f"git archive {sha[:12]} in {path} failed ({last}): check the repository")
            with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as t:
                t.extractall(root, filter="data")
            done.touch()
    return root.resolve()
