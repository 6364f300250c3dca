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


SHARD_CODE = {"pkg/http.py": "def send(request, timeout):\n    return request\n\n\ndef retry_after(header):\n    return int(header)\n",
              "pkg/cookies.py": "def merge_cookies(jar, cookies):\n    jar.update(cookies)\n    return jar\n",
              "pkg/util.py": "def to_bytes(text):\n    return text.encode()\n"}
SHARD_ISSUES = ["retry after header is ignored when the request times out", "merging cookies loses the jar",
                "to_bytes crashes on bytes input", "send ignores the timeout"]
SHARD_GOLD = ["pkg/http.py", "pkg/cookies.py", "pkg/util.py", "pkg/http.py"]


@pytest.fixture
def snapshot_set(tmp_path):
    """An imported SWE-bench-style set over two repositories the test builds, four commits each, one
    instance per commit (8 snapshots); returns (tmp_path, the run words of a code-BM25 function arm)."""
    import json

    from hermes_eval.cli.main import main

    rows = []
    for name in ("acme", "beta"):
        commits = [dict(SHARD_CODE)] + [{"pkg/util.py": SHARD_CODE["pkg/util.py"] + f"\n\nVERSION = {i}\n"}
                                        for i in range(1, 4)]
        shas = make_repo(tmp_path / "mirrors" / f"org+{name}", commits)
        for i, sha in enumerate(shas):
            gold = SHARD_GOLD[i]
            rows.append({"instance_id": f"org__{name}-{i}", "repo": f"org/{name}", "base_commit": sha,
                         "problem_statement": SHARD_ISSUES[i],
                         "golden_patch": f"diff --git a/{gold} b/{gold}\n--- a/{gold}\n+++ b/{gold}\n@@ -1,2 +1,2 @@\n-x\n+y\n"})
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp_path / "lite.json"), "--repos", str(tmp_path / "mirrors"),
                 "name=shardset", *base]) == 0
    arm = ["queryset=imported", "queryset.name=shardset", "corpus=imported", "retriever=bm25", "chunker=functions",
           "bootstrap=50", "warmup=1", "+hygiene.tokenizer=approx", "progress=off", *base]
    return tmp_path, arm


@pytest.fixture
def lock_refusals(monkeypatch):
    """An event set once any FileLock attempt in this process comes back refused (another process holds
    the lock): how a test knows a waiter is really waiting, without timing it."""
    import threading

    from filelock import FileLock

    refused, acquire = threading.Event(), FileLock._acquire

    def attempt(lock):
        acquire(lock)
        if not lock.is_locked:
            refused.set()

    monkeypatch.setattr(FileLock, "_acquire", attempt)
    return refused

