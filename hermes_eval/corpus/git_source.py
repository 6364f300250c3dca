"""``git:PATH@COMMIT``: a local clone or bare mirror at one commit (no network, no work tree
touched); its files are read from the repository by ``git_tree.py``."""
from __future__ import annotations

import subprocess
from pathlib import Path

from hermes_eval.core.errors import UserError


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

