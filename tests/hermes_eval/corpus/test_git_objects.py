"""A commit's blobs listed from git's objects (one reader per repository) are exactly what
``git ls-tree -r --long --full-tree`` lists, for every snapshot of a repository, and a folder the
snapshots share is parsed once."""
from __future__ import annotations

import os
import subprocess

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.git_objects import MISSING, ObjectReader
from tests.hermes_eval.conftest import git, make_repo


def _ls_tree(repo, commit):
    """The oracle: git's own listing."""
    out = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "-z", "--long", "--full-tree", commit],
                         capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    rows = []
    for row in filter(None, out.split("\0")):
        meta, path = row.split("\t", 1)
        mode, kind, sha, size = meta.split()
        if kind == "blob":
            rows.append((path, mode, sha, int(size) if size.isdigit() else MISSING))
    return sorted(rows)


def _repo(path):
    shas = make_repo(path, [
        {"a.py": "A = 1\n", "a.b": "dot\n", "a/b.py": "B = 2\n", "a/c/d.py": "D = 4\n", "z/y/x/w.txt": "deep\n",
         "docs/guide.md": "# Guide\n", "space name.py": "S = 1\n", "caf\u00e9.py": "C = 1\n"},
        {"a/c/d.py": "D = 5\n", "new/e.py": "E = 1\n"},  # one folder changes, the others are shared
    ])
    (path / "run.sh").write_text("echo hi\n")
    os.chmod(path / "run.sh", 0o755)
    os.symlink("a.py", path / "link.py")
    (path / "empty.txt").write_text("")
    git(path, "add", "-A")
    # a submodule (gitlink) entry: ls-tree lists it as a commit, which is not a blob
    git(path, "update-index", "--add", "--cacheinfo", f"160000,{shas[0]},vendored")
    git(path, "commit", "-q", "-m", "modes, a link, an empty file, a submodule")
    return shas + [git(path, "rev-parse", "HEAD")]


def test_every_snapshot_lists_what_ls_tree_lists(tmp_path):
    repo = tmp_path / "proj"
    shas = _repo(repo)
    reader = ObjectReader(repo)
    try:
        for sha in shas + ["HEAD", "HEAD~1"]:
            assert reader.blobs(sha) == _ls_tree(repo, sha)
        last = {p: (m, s) for p, m, s, _ in reader.blobs(shas[-1])}
        assert last["run.sh"][0] == "100755" and last["link.py"][0] == "120000" and "vendored" not in last
        assert {p for p in last} >= {"a.b", "a/b.py", "a/c/d.py", "z/y/x/w.txt", "caf\u00e9.py", "space name.py"}
    finally:
        reader.close()


def test_a_folder_shared_by_snapshots_is_read_once(tmp_path):
    repo = tmp_path / "proj"
    first, second, third = _repo(repo)
    reader = ObjectReader(repo)
    try:
        reader.blobs(first)
        seen = set(reader._trees)
        reader.blobs(second)
        new = set(reader._trees) - seen
        # the root, a/ and a/c/ changed and new/ appeared; z/, z/y/, z/y/x/ and docs/ are reused
        shared = git(repo, "rev-parse", f"{second}:z")
        assert shared in seen and shared not in new and len(new) == 4
    finally:
        reader.close()


def test_a_missing_blob_has_the_missing_size_and_a_bad_commit_is_one_clear_error(tmp_path):
    repo = tmp_path / "proj"
    sha = make_repo(repo, [{"a.py": "A = 1\n", "data/huge.txt": "x" * 5000 + "\n"}])[0]
    blob = git(repo, "rev-parse", f"{sha}:data/huge.txt")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    reader = ObjectReader(repo)
    try:
        assert dict((p, size) for p, _, _, size in reader.blobs(sha))["data/huge.txt"] == MISSING
        assert reader.blobs(sha) == _ls_tree(repo, sha)
        with pytest.raises(UserError, match=r"git cat-file 0{12} in .*proj failed .*check the repository"):
            reader.blobs("0" * 40)
    finally:
        reader.close()
