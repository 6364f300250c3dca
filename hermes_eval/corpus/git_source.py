"""``git:PATH@COMMIT``: a local clone or bare mirror at one commit (no network, no work tree
touched); its files are read from the repository by ``git_tree.py``."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Sequence

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


_RESOLVED: dict[tuple[str, str], str | None] = {}  # (repository, full sha) -> itself (None: not there)
FULL_SHA = re.compile(r"[0-9a-f]{40}")


def prime(specs: Sequence[str]) -> None:
    """Resolve the commits of many ``git:`` specs with one ``git cat-file --batch-check`` per repository, for
    :func:`resolve_commit` to read: a snapshot set names hundreds (a ``rev-parse`` each cost a 193-snapshot
    run 0.25 s)."""
    by_repo: dict[str, list[str]] = {}
    for spec in specs:
        if spec.startswith("git:") and "@" in spec:
            path, commit = parse(spec)
            if path.exists() and (str(path), commit) not in _RESOLVED:
                by_repo.setdefault(str(path), []).append(commit)
    for path, commits in by_repo.items():
        commits = list(dict.fromkeys(c for c in commits if FULL_SHA.fullmatch(c)))  # names that never move
        if not commits:
            continue
        proc = subprocess.run(["git", "-C", path, "cat-file", "--batch-check"], capture_output=True, text=True,
                              input="".join(f"{c}^{{commit}}\n" for c in commits))
        lines = proc.stdout.splitlines()
        if proc.returncode != 0 or len(lines) != len(commits):
            continue  # resolve_commit asks git one commit at a time
        for commit, line in zip(commits, lines):
            sha, _, kind = line.partition(" ")
            _RESOLVED[(path, commit)] = sha if kind.startswith("commit") and len(sha) >= 40 else None


def resolve_commit(path: Path, commit: str, spec: str) -> str:
    """The full sha of ``commit`` in the repository at ``path``."""
    if not path.exists():
        raise UserError(f"corpus source {spec!r}: repository {path} does not exist; clone or mirror it "
                        f"there first")
    if (str(path), commit) in _RESOLVED:
        sha = _RESOLVED[(str(path), commit)]
    else:
        proc = subprocess.run(["git", "-C", str(path), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                              capture_output=True, text=True)
        sha = proc.stdout.strip() if proc.returncode == 0 else None
    if sha is None:
        raise UserError(f"corpus source {spec!r}: commit {commit!r} is not in {path}; fetch it into that "
                        f"repository or fix the commit")
    return sha

