"""Version bumps and changelog-only releases are skipped as `release`, before `short_message`; a release subject
over a real code change is not; words are runs holding a letter, version strings out. Scripted commits, real git."""
from __future__ import annotations

import json

import pytest
from scripted_repo import OPS, Scripted, day

from hermes_eval.cli.main import main
from hermes_eval.querysets.mined.commits import walk
from hermes_eval.querysets.mined.filters import BOTS, Candidate, Walk, first_reason, registry
from hermes_eval.querysets.mined.message import clean, word_count
from hermes_eval.querysets.mined.release import release_subject, version_line

THREE = ("start version 2.2.0", "pre-release version 2.0.0a1", "prerelease version 2.0.0rc1")
INIT = '__version__ = "{}"\n\n\ndef describe():\n    return "calc " + __version__\n'
LIB = 'pub const VERSION: &str = "{}";\n\npub fn add(a: i32, b: i32) -> i32 {{\n    a + b\n}}\n'
GUARDED = OPS.replace("    return a / b\n", "    if b == 0:\n        return None\n    return a / b\n")


def _history(path) -> Scripted:
    r = Scripted(path)
    r.commit("root", day(1), {"calc/__init__.py": INIT.format("2.1.0"), "calc/ops.py": OPS,
                              "crate/src/lib.rs": LIB.format("2.1.0"), "CHANGELOG.md": "# Changes\n",
                              "setup.cfg": "[options]\ntests_require = pytest==7.1\n",
                              "pyproject.toml": '[project]\nname = "calc"\nversion = "2.1.0"\n'},
             "Initial import of the calculator package")
    versions = iter(["2.2.0", "2.0.0a1", "2.0.0rc1"])
    for n, message in enumerate(THREE):  # the version string alone changes: release
        r.commit(f"bump{n}", day(2 + n), {"calc/__init__.py": INIT.format(next(versions))}, message)
    r.commit("changelog", day(5), {"CHANGELOG.md": "# Changes\n\n## 2.3.0\n\n- faster adds\n",
                                   "pyproject.toml": '[project]\nname = "calc"\nversion = "2.3.0"\n'}, "Release v2.3.0")
    r.commit("rust", day(6), {"crate/src/lib.rs": LIB.format("2.4.0")}, "chore(release): v2.4.0")
    r.commit("prepare", day(7), {"calc/__init__.py": INIT.format("2.4.1")}, "prepare for 2.4.1 release")
    # a release subject over a code change that is no version: not a release; its words decide
    for n, message in enumerate(THREE):
        body = OPS.replace("a + b", f"a + b + {n}")
        r.commit(f"short{n}", day(8 + n), {"calc/ops.py": body}, message)
    r.commit("fix_and_bump", day(11), {"calc/__init__.py": INIT.format("2.6.0"), "calc/ops.py": GUARDED},
             "Bump version to 2.6.0 and return None on division by zero")
    r.commit("deps", day(12), {"setup.cfg": "[options]\ntests_require = pytest==7.2\n"},
             "Bump pytest from 7.1 to 7.2 for the tests")
    r.commit("version_text", day(13), {"calc/__init__.py": INIT.format("2.6.0").replace('"calc "', '"calculator "')},
             "Release 2.6.1")  # a version subject, but the line changed is code: short, not release
    return r


REASONS = {"root": "root", "bump0": "release", "bump1": "release", "bump2": "release", "changelog": "release",
           "rust": "release", "prepare": "release", "short0": "short_message", "short1": "short_message",
           "short2": "short_message", "fix_and_bump": None, "deps": "no_source_change", "version_text": "short_message"}


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Scripted:
    return _history(tmp_path_factory.mktemp("release") / "calc")


def test_each_commit_is_skipped_for_its_reason(history):
    commits = walk(history.path, "HEAD")
    context, names = Walk(history.path, commits), {sha: name for name, sha in history.shas.items()}
    filters = registry(frozenset({"code"}), 4, 10, BOTS)
    got = {names[c.sha]: first_reason(filters, Candidate(c, clean(c.message, c.trailers), context)) for c in commits}
    assert got == REASONS
    reasons = [f.reason for f in filters]
    assert reasons.index("release") == reasons.index("short_message") - 1  # a version bump is counted as release


def test_mine_counts_release_in_the_manifest(history, tmp_path, capsys):
    assert main(["datasets", "mine", str(history.path), "name=rel", f"paths.datasets={tmp_path}",
                 f"paths.cache={tmp_path / 'cache'}", "progress=off"]) == 0
    manifest = json.loads((tmp_path / "rel" / "manifest.json").read_text())
    assert manifest["generator_version"] == "2"
    assert manifest["skipped"]["release"] == 6 and manifest["skipped"]["short_message"] == 4
    assert manifest["filter_order"].index("release") + 1 == manifest["filter_order"].index("short_message")
    assert manifest["counts"]["queries"] == 1  # fix_and_bump


def test_the_three_messages_are_neither_words_enough_nor_anything_but_releases():
    for message in THREE:
        assert word_count(message) < 4 and release_subject(message), message
    assert [word_count(m) for m in THREE] == [2, 3, 2]


@pytest.mark.parametrize("text,words", [
    ("Fix typo (#188)", 2), ("Support Python 3.14 (#528)", 2), ("Prepare v0.1.0", 1), ("Version 0.28.1 (#3445)", 1),
    ("Fix #6: Non-mutating TTLCache.__getitem__()", 5), ("snake_case_name: x.y", 3), ("python3.14 support", 2),
    ("Guard against division by zero", 5)])
def test_words_hold_a_letter_and_version_strings_are_none(text, words):
    assert word_count(text) == words


@pytest.mark.parametrize("subject", [
    "Release v7.0.6.", "Release 0.5.0", "Pre-release v6.0.0b4.", "Prepare v.0.7.0", "prepare for 1.3.3 release",
    "Prepare release", "Bump version.", "bump version up to 1.3.2-dev", "Bump version number for TestPyPI.",
    "update HISTORY.rst for 1.2.0 release", "chore(release): v1.2.3", "v1.2.3", "2.0.0rc1", "Version 0.28.1 (#3445)",
    "Update version to 1.4", "Release notes for 3.0"])
def test_release_subjects(subject):
    assert release_subject(subject)


@pytest.mark.parametrize("subject", [
    "Release the GIL while hashing keys", "Prepare for Python 3.13.", "Bump codecov/codecov-action from 5.5.2 to 6.0.0",
    "chore(deps): bump actions/checkout in the github-actions group", "Bump copyright year and version.",
    "Fix release info.", "Pin black version.", "Fix version parsing for 1.x tags"])
def test_other_subjects(subject):
    assert not release_subject(subject)


@pytest.mark.parametrize("line,only_version", [
    ('__version__ = "1.2.3"', True), ('VERSION = (1, 2, 3, "final", 0)', True), ('#define JQ_VERSION "1.7.1"', True),
    ('pub const VERSION: &str = "1.2.3";', True), ('    version="1.2.3",', True), ('const Version = "v1.2.3"', True),
    ('__version__ = "2.0.0.dev0"', True), ("", True), ("x = 1.5", False), ("# Copyright 2024", False),
    ('__version__ = ".".join(map(str, parts))', False), ("    return a / b", False)])
def test_version_lines(line, only_version):
    assert version_line(line) is only_version
