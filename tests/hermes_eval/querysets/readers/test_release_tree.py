"""A release read from a checkout and from a git repository gives the same files; bad locations are one line."""
from __future__ import annotations

import subprocess

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.release_tree import ReleaseTree


class Toy(ReleaseTree):
    MARKER = "gold"
    HINT = "give the toy release"


def _git(path, *args):
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


@pytest.fixture()
def checkout(tmp_path):
    root = tmp_path / "rel"
    (root / "gold" / "sub").mkdir(parents=True)
    (root / "gold" / "a.csv").write_bytes(b"x,y\n1,2\n")
    (root / "gold" / "b.txt").write_bytes("caf\xe9\n".encode("cp1252"))
    (root / "gold" / "sub" / "c.txt").write_text("deeper\n")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "release")
    return root


def test_a_checkout_and_its_repository_read_alike(checkout, tmp_path):
    subprocess.run(["git", "clone", "-q", "--mirror", str(checkout), str(tmp_path / "mirror")], check=True)
    folder = Toy.open(checkout / "gold" / "..")  # a clone is a git repository: read at HEAD
    mirror = Toy.open(tmp_path / "mirror")
    assert folder.commit == mirror.commit and len(mirror.commit) == 40
    for tree in (folder, mirror):
        assert tree.names("gold") == ["a.csv", "b.txt"]
        assert tree.read("gold/b.txt") == "caf\xe9\n".encode("cp1252") and tree.read("gold/none") is None
        tree.close()
    subprocess.run(["rm", "-rf", str(checkout / ".git")], check=True)
    plain = Toy.open(checkout)
    assert plain.commit is None and plain.names("gold") == ["a.csv", "b.txt"]
    assert plain.read("gold/sub/c.txt") == b"deeper\n" and plain.source["commit"] is None


def test_bad_locations_are_one_line(checkout, tmp_path):
    with pytest.raises(UserError, match=r"no gold/ folder: give the toy release"):
        Toy.open(tmp_path)
    subprocess.run(["rm", "-rf", str(checkout / ".git")], check=True)
    with pytest.raises(UserError, match=r"commit=abc: .* is a folder, not a git repository; drop the option"):
        Toy.open(checkout, "abc")
    (tmp_path / "bare").mkdir()
    _git(tmp_path / "bare", "init", "-q", "--bare")
    with pytest.raises(UserError, match=r"no commit HEAD .*check the mirror"):
        Toy.open(tmp_path / "bare")
