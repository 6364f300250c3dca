"""git snapshots read from the repository (ls-tree + cat-file) keep exactly what a scan of the
unpacked commit keeps, and snapshots of one repository share every unchanged file's text."""
from __future__ import annotations

import io
import os
import subprocess
import tarfile

from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.git_tree import Blobs, tree
from tests.hermes_eval.conftest import git, make_repo


def _awkward_repo(path):
    """Every case the folder scan has a rule for, committed."""
    shas = make_repo(path, [{
        "pkg/a.py": "def a():\n    return 1\n", "pkg/b.py": "\ufeffB = 'bom'\r\nC = 2\r\n",
        "pkg/big.py": "x = 1\n" * 400, "node_modules/dep/index.js": "module.exports = 1;\n",
        ".github/ci.yml": "on: push\n", "pkg/.hidden.py": "H = 1\n", "build/gen.py": "G = 1\n",
        "vendor/only.py": "V = 1\n", "docs/guide.md": "# Guide\n\ntext\n", "x.egg-info/PKG-INFO": "Name: x\n"}])
    (path / "pkg" / "bin.py").write_bytes(b"\x00\x01binary")
    (path / "pkg" / "latin.py").write_bytes("caf\xe9 = 1\n".encode("latin-1"))
    os.symlink("a.py", path / "pkg" / "dup.py")  # a link to a kept file: a duplicate
    os.symlink("../build/gen.py", path / "pkg" / "gen_link.py")  # to a file in a skipped folder: kept
    os.symlink("../../outside.py", path / "pkg" / "out.py")  # leaves the tree
    os.symlink("missing.py", path / "pkg" / "broken.py")
    os.symlink("pkg", path / "pkg_alias")  # a folder
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "awkward files")
    return shas + [git(path, "rev-parse", "HEAD")]


def _unpacked(repo, sha, dest):
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", sha], capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        t.extractall(dest, filter="tar")  # our own repository; "data" refuses the outside link
    return dest


def test_a_snapshot_read_from_git_equals_the_scan_of_its_unpacked_tree(tmp_path):
    sha = _awkward_repo(tmp_path / "proj")[-1]
    folder = _unpacked(tmp_path / "proj", sha, tmp_path / "unpacked" / "proj")
    for limit in (1_000_000, 1000):  # the size rule too (big.py is 2,400 bytes)
        from_git = load_corpus([f"git:{tmp_path / 'proj'}@{sha}"], cache_dir=tmp_path / "c", max_file_bytes=limit)
        from_disk = load_corpus([str(folder)], cache_dir=tmp_path / "c", max_file_bytes=limit)
        assert [(f.path, f.text, f.language) for f in from_git.files] == \
            [(f.path, f.text, f.language) for f in from_disk.files]
        assert from_git.fingerprint == from_disk.fingerprint
        assert from_git.skipped == from_disk.skipped
    paths = {f.path for f in from_git.files}
    assert "pkg/gen_link.py" in paths and "pkg/dup.py" not in paths and "build/gen.py" not in paths
    assert from_git.by_path()["pkg/b.py"].text == "B = 'bom'\nC = 2\n"
    assert from_git.skipped["binary"] == 1 and from_git.skipped["not_utf8"] == 1
    assert from_git.skipped["too_large"] == 1 and from_git.skipped["symlink_outside_root"] == 1


def test_snapshots_of_one_repository_share_unchanged_texts_and_read_each_blob_once(tmp_path):
    shas = make_repo(tmp_path / "proj", [{"a.py": "A = 1\n", "b.py": "B = 1\n", "c.py": "C = 1\n"},
                                          {"a.py": "A = 2\n"}, {"c.py": "C = 3\n"}])
    corpus = load_corpus([f"git:{tmp_path / 'proj'}@{s}" for s in shas], cache_dir=tmp_path / "c")
    by = corpus.by_path()
    b_texts = [by[f"proj@{s[:8]}/b.py"].text for s in shas]
    assert all(t is b_texts[0] for t in b_texts)  # one string in memory for the three snapshots
    assert by[f"proj@{shas[0][:8]}/a.py"].text == "A = 1\n" and by[f"proj@{shas[2][:8]}/a.py"].text == "A = 2\n"
    assert by[f"proj@{shas[2][:8]}/c.py"].text == "C = 3\n"
    blobs = Blobs(tmp_path / "proj")
    try:
        for s in shas:
            for e in tree(tmp_path / "proj", s):
                blobs.text(e.sha, lambda data: (data.decode(), None))
        assert blobs.read == 5  # A=1, A=2, B=1, C=1, C=3: nine files, five distinct blobs
    finally:
        blobs.close()
    assert not (tmp_path / "c" / "git").exists()  # nothing unpacked into the cache


def test_a_blob_the_repository_lacks_is_counted_not_fatal(tmp_path):
    """Mirrors may be trimmed of their largest blobs: git ls-tree lists them with size BAD."""
    sha = make_repo(tmp_path / "proj", [{"a.py": "A = 1\n", "data/huge.txt": "x" * 5000 + "\n"}])[0]
    blob = git(tmp_path / "proj", "rev-parse", f"{sha}:data/huge.txt")
    (tmp_path / "proj" / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    corpus = load_corpus([f"git:{tmp_path / 'proj'}@{sha}"], cache_dir=tmp_path / "c")
    assert [f.path for f in corpus.files] == ["a.py"] and corpus.skipped["blob_missing"] == 1


def test_blobs_are_read_ahead_in_batches_bounded_by_count_and_bytes(tmp_path, monkeypatch):
    from hermes_eval.corpus import scan

    files = {f"m{i}.py": f"X{i} = '{'y' * (10 * i)}'\n" for i in range(7)}
    files["docs/readme.md"], files["big.py"] = "# Notes\n", "Z = 1\n" * 50  # markdown is indexed too
    sha = make_repo(tmp_path / "proj", [files])[0]
    whole = load_corpus([f"git:{tmp_path / 'proj'}@{sha}"], cache_dir=tmp_path / "c1")
    batches = []
    real = Blobs.prefetch
    monkeypatch.setattr(Blobs, "prefetch", lambda self, shas: batches.append(list(shas)) or real(self, shas))
    monkeypatch.setattr(scan, "PREFETCH", 3)
    monkeypatch.setattr(scan, "PREFETCH_BYTES", 60)
    small = load_corpus([f"git:{tmp_path / 'proj'}@{sha}"], cache_dir=tmp_path / "c2")
    assert [(f.path, f.text) for f in small.files] == [(f.path, f.text) for f in whole.files]
    assert len(batches) > 3 and all(1 <= len(b) <= 3 for b in batches)
    sizes = {git(tmp_path / "proj", "rev-parse", f"{sha}:{p}"): len(t.encode()) for p, t in files.items()}
    # past its first blob a batch stays within the byte budget; the 300-byte file comes alone
    assert all(len(b) == 1 or sum(sizes[s] for s in b) <= 60 for b in batches)
    assert sorted(s for b in batches for s in b) == sorted(set(sizes))  # each blob read ahead once
