"""The mined sets' slice (tests/slices/cut.py says what a slice module holds; scripted, see PROVENANCE.md): each
``OWNER+NAME.json`` is a repository's commits, which the records test builds as a git repository."""
from __future__ import annotations

import json
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path


def folders(slice_dir: Path, tmp: Path, make_repo, record) -> tuple[Path, Path]:
    """(the mirrors folder, which is also the data folder: each ``OWNER+NAME.json`` of the slice built as the
    repository ``OWNER+NAME/repo``, one commit per entry at its date, by its author)."""
    mirrors = tmp / "mirrors"
    for script in sorted(slice_dir.glob("*.json")):
        repo = mirrors / script.stem / "repo"
        repo.mkdir(parents=True)
        for commit in json.loads(script.read_text())["commits"]:
            name, _, email = commit["author"].partition(" <")
            env = {"PATH": os.environ["PATH"], "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1",
                   **{f"GIT_{who}_{key}": value for who in ("AUTHOR", "COMMITTER")
                      for key, value in (("NAME", name), ("EMAIL", email.rstrip(">")), ("DATE", commit["date"]))}}
            if not (repo / ".git").exists():
                subprocess.run(["git", "-C", str(repo), "init", "-q", "-b", "main"], check=True, env=env)
            for rel, text in commit["files"].items():
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                (repo / rel).write_text(text)
            for args in (["add", "-A"], ["commit", "-q", "-m", commit["message"]]):
                subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)
    return mirrors, mirrors


def _date(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=timezone.utc)


OPTION_CHECKS = {
    "since": lambda v, qs, _: qs.manifest["since"] == v and all(
        datetime.fromisoformat(q.meta["date"]) >= _date(v) for q in qs.queries),
    "until": lambda v, qs, _: qs.manifest["until"] == v and all(
        datetime.fromisoformat(q.meta["date"]) < _date(v) for q in qs.queries),
    "repo": lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v},
}
