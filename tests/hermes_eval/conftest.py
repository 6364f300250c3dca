"""Fixtures for the hermes_eval tests: tiny real git repositories (no network, no mirror)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@t", "GIT_AUTHOR_DATE": "2020-01-01T00:00:00",
                               "GIT_COMMITTER_DATE": "2020-01-01T00:00:00", "HOME": str(repo)}).stdout.strip()


def make_repo(path: Path, commits: list[dict[str, str]]) -> list[str]:
    """A repository at ``path`` with one commit per {relative path: text} (files replaced or
    added); returns the commit shas in order."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    shas = []
    for files in commits:
        for rel, text in files.items():
            (path / rel).parent.mkdir(parents=True, exist_ok=True)
            (path / rel).write_text(text)
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", f"commit {len(shas)}")
        shas.append(git(path, "rev-parse", "HEAD"))
    return shas


@pytest.fixture
def git_repo():
    """``git_repo(path, commits)``: see :func:`make_repo`."""
    return make_repo
