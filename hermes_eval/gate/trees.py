"""Source trees the latency rules measure: this checkout, and the baseline ref extracted from git.

The baseline tree is ``git archive <commit>`` unpacked into ``<cache>/gate-trees/<commit>``: a
read-only snapshot of exactly what was committed, made once per commit (a file lock makes
concurrent gates share it) and reused by later runs; nothing is fetched (the commit must be in
the local history; CI checkouts need ``fetch-depth: 0``) and nothing is registered in ``.git``
(unlike ``git worktree add``, so a killed gate leaves nothing to prune).
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from filelock import FileLock

from hermes_eval.core.errors import UserError

PROBE = Path("hermes_eval") / "gate" / "probe.py"


class TreeError(UserError):
    """The baseline tree cannot be made: the latency rules cannot be evaluated."""


def this_tree() -> Path:
    """The checkout this code runs from (with its uncommitted changes: that is what is gated)."""
    return Path(__file__).resolve().parents[2]


def _git(repo: Path, *args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=repo, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        raise TreeError(f"git {' '.join(args)} failed in {repo}: {exc}") from None
    if out.returncode != 0:
        msg = " ".join(out.stderr.decode(errors="replace").split())[:200]
        raise TreeError(f"git {' '.join(args)} failed in {repo}: {msg}")
    return out.stdout.decode(errors="replace") if args[0] != "archive" else out.stdout  # type: ignore[return-value]


def resolve(repo: Path, ref: str) -> str:
    """The full commit id of ``ref`` in ``repo``'s local history."""
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
    except TreeError:
        raise TreeError(f"baseline ref {ref!r} is not a commit in {repo} (a shallow clone? fetch the history, "
                        f"or pass --against REF)") from None


def dirty(repo: Path) -> bool:
    """True when tracked files differ from HEAD (the tree is not what its commit says)."""
    try:
        return bool(_git(repo, "status", "--porcelain", "--untracked-files=no").strip())
    except TreeError:
        return False


def baseline_tree(repo: Path, commit: str, cache_dir: Path) -> Path:
    """``commit``'s files, unpacked once under ``cache_dir`` and reused."""
    root = Path(cache_dir) / "gate-trees"
    dest = root / commit
    if (dest / PROBE).exists():
        return dest
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f"{commit}.lock")):
        if (dest / PROBE).exists():
            return dest
        data = _git(repo, "archive", "--format=tar", commit)
        tmp = root / f".{commit}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:  # type: ignore[arg-type]
            tar.extractall(tmp, filter="data")
        if not (tmp / PROBE).exists():
            shutil.rmtree(tmp, ignore_errors=True)
            raise TreeError(f"baseline commit {commit[:12]} has no {PROBE.as_posix()} (it predates paired latency "
                            f"measurement): pass --against a newer ref, or re-baseline with --update-baseline")
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(tmp, dest)
    return dest
