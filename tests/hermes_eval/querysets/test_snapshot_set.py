"""The snapshot-set builder: snapshots loaded once under their prefixes (none for a set of one), and the set
keeps the snapshots its kept queries search, with the fingerprint a fresh load of those alone gives."""
from __future__ import annotations

import pytest

from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.snapshot_set import Snapshot, git_snapshot, load_snapshots


@pytest.fixture
def mirror(tmp_path, git_repo):
    """A repository ``acme+tool/repo`` of three commits, each editing one file, and their shas."""
    path = tmp_path / "mirrors" / "acme+tool" / "repo"
    shas = git_repo(path, [{"src/a.py": "def a():\n    return 1\n", "src/b.py": "B = 1\n", "notes.txt": "x\n"},
                           {"src/a.py": "def a():\n    return 2\n"},
                           {"src/b.py": "B = 3\n"}])
    return path, shas


def test_a_git_snapshot_is_the_mirror_at_the_commit_under_name_at_sha8(mirror):
    path, shas = mirror
    snap = git_snapshot(path, shas[0])
    assert snap == Snapshot(f"git:{path.resolve()}@{shas[0]}", f"tool@{shas[0][:8]}/")


def test_snapshots_load_once_each_under_its_prefix(tmp_path, mirror):
    path, shas = mirror
    snaps = [git_snapshot(path, sha) for sha in reversed(shas)] + [git_snapshot(path, shas[0])]  # one repeated
    loaded = load_snapshots(snaps, name="t", cache_dir=tmp_path / "cache", languages=("python",))
    assert loaded.sources == tuple(sorted(f"git:{path.resolve()}@{sha}" for sha in shas))
    assert {p.split("/", 1)[0] for p in loaded.files} == {f"tool@{sha[:8]}" for sha in shas}
    assert not any(p.endswith("notes.txt") for p in loaded.files)  # languages= honoured
    assert loaded.prefix(snaps[0]) == f"tool@{shas[2][:8]}/"
    assert loaded.files[f"tool@{shas[1][:8]}/src/a.py"].text == "def a():\n    return 2\n"
    one = load_snapshots([snaps[0]], name="t", cache_dir=tmp_path / "cache")
    assert one.prefix(snaps[0]) == "" and "src/b.py" in one.files  # a set of one has no prefix


def test_the_set_keeps_the_searched_snapshots_with_their_fresh_fingerprint(tmp_path, mirror):
    path, shas = mirror
    snaps = [git_snapshot(path, sha) for sha in shas]
    loaded = load_snapshots(snaps, name="t", cache_dir=tmp_path / "cache")
    built = loaded.searched([snaps[0].prefix, snaps[2].prefix, snaps[0].prefix])
    assert built.sources == tuple(sorted((snaps[0].source, snaps[2].source)))  # as the manifest lists them
    assert built.unsearched == 1 and built.scoped
    fresh = load_corpus(list(built.sources), cache_dir=str(tmp_path / "cache"))
    assert built.fingerprint == fresh.fingerprint != loaded.corpus.fingerprint


@pytest.mark.parametrize("searched", [["a", "b", "c"], ["b"], [""], []], ids=["all", "one", "unscoped", "none"])
def test_every_snapshot_stays_when_all_or_fewer_than_two_are_searched(tmp_path, mirror, searched):
    """One snapshot left would lose the prefix its queries name; a pooled set's queries (scope '') search all."""
    path, shas = mirror
    snaps = [git_snapshot(path, sha) for sha in shas]
    prefix = dict(zip("abc", (s.prefix for s in snaps)), **{"": ""})
    loaded = load_snapshots(snaps, name="t", cache_dir=tmp_path / "cache")
    built = loaded.searched(prefix[k] for k in searched)
    assert built.sources == loaded.sources and built.unsearched == 0
    assert built.fingerprint == loaded.corpus.fingerprint


def test_no_snapshots_load_nothing(tmp_path):
    loaded = load_snapshots([], name="t", cache_dir=tmp_path / "cache")
    assert loaded.corpus is None and loaded.files == {} and loaded.sources == ()
