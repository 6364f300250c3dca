"""Corpus source git:PATH@COMMIT: a clone or bare mirror read at one commit, no work tree, no network."""
from __future__ import annotations

import subprocess

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus


def test_each_commit_is_read_as_it_was_from_a_clone_and_a_bare_mirror(tmp_path, git_repo):
    shas = git_repo(tmp_path / "proj", [{"pkg/a.py": "A = 1\n", "README.md": "# p\n"}, {"pkg/a.py": "A = 2\n"}])
    mirror = tmp_path / "mirrors" / "owner+proj" / "repo"
    subprocess.run(["git", "clone", "-q", "--mirror", str(tmp_path / "proj"), str(mirror)], check=True)
    cache = tmp_path / "cache"
    first = load_corpus([f"git:{tmp_path / 'proj'}@{shas[0]}"], cache_dir=cache)
    second = load_corpus([f"git:{mirror}@{shas[1][:10]}"], cache_dir=cache)
    assert first.by_path()["pkg/a.py"].text == "A = 1\n" and second.by_path()["pkg/a.py"].text == "A = 2\n"
    both = load_corpus([f"git:{mirror}@{shas[0]}", f"git:{mirror}@{shas[1]}"], cache_dir=cache)
    assert sorted(f.path for f in both.files if f.path.endswith("a.py")) == [
        f"proj@{shas[0][:8]}/pkg/a.py", f"proj@{shas[1][:8]}/pkg/a.py"]  # one prefix per snapshot
    assert (tmp_path / "proj" / "pkg" / "a.py").read_text() == "A = 2\n"  # the work tree untouched


@pytest.mark.parametrize("spec, words", [("git:{repo}", "git:PATH@COMMIT"),
                                         ("git:{repo}@deadbeef", "commit 'deadbeef' is not in"),
                                         ("git:{tmp}/nowhere@abc", "does not exist")])
def test_bad_specs_fail_with_one_clear_line(tmp_path, git_repo, spec, words):
    git_repo(tmp_path / "proj", [{"a.py": "x = 1\n"}])
    with pytest.raises(UserError, match=words):
        load_corpus([spec.format(repo=tmp_path / "proj", tmp=tmp_path)], cache_dir=tmp_path / "cache")


def test_primed_commits_resolve_as_rev_parse_resolves_them(tmp_path, git_repo):
    from hermes_eval.corpus import git_source

    repo = tmp_path / "proj"
    shas = git_repo(repo, [{"a.py": "x = 1\n"}, {"a.py": "x = 2\n"}])
    subprocess.run(["git", "-C", str(repo), "tag", "v1", shas[0]], check=True)
    names = ["HEAD", "main", "v1", shas[0][:9], shas[1], shas[0], "HEAD~1", "deadbeef", "f" * 40]
    unprimed = {}
    for name in names:
        try:
            unprimed[name] = git_source.resolve_commit(repo, name, f"git:{repo}@{name}")
        except UserError as exc:
            unprimed[name] = str(exc)
    git_source.prime([f"git:{repo}@{n}" for n in names])
    # one batch answered the full shas, which never move; names that can move are asked each time
    assert {n for n in names if (str(repo), n) in git_source._RESOLVED} == {shas[0], shas[1], "f" * 40}
    for name in names:
        try:
            got = git_source.resolve_commit(repo, name, f"git:{repo}@{name}")
        except UserError as exc:
            got = str(exc)
        assert got == unprimed[name], name
    assert unprimed["v1"] == shas[0] and unprimed["HEAD"] == shas[1] and "is not in" in unprimed["f" * 40]
