"""A commit's diff at its first parent: gold on old-side lines (a pure insertion anchored as the SWE-bench
importer anchors it), a rename's gold on its old path, a binary file without gold, file kinds by
language for every language languages.py knows, and patch ids that find a re-applied change."""
from __future__ import annotations

import pytest

from hermes_eval.querysets.mined.changes import FileDiff, kind_of, patch_ids, read_change


def _change(scripted, name: str):
    sha = scripted.shas[name]
    parent = scripted.git("rev-parse", f"{sha}^1")
    return read_change(scripted.path, parent, sha)


def test_pure_insertion_is_anchored_at_the_line_before_it(scripted):
    change = _change(scripted, "div_guard")
    assert change.files == (FileDiff("calc/ops.py", "calc/ops.py"),)
    assert change.spans == {"calc/ops.py": ((5, 5),)}


def test_rename_with_an_edit_has_gold_on_its_old_path(scripted):
    change = _change(scripted, "rename")
    assert change.files == (FileDiff("calc/old_name.py", "calc/totals.py"),)
    assert change.spans == {"calc/old_name.py": ((4, 4),)}


def test_binary_file_is_listed_without_gold(scripted):
    change = _change(scripted, "binary")
    assert FileDiff("assets/logo.png", "assets/logo.png", binary=True) in change.files
    assert change.spans == {"web/app.js": ((9, 9),)}
    assert change.gold(frozenset({"code"})) == {"web/app.js": ((9, 9),)}


def test_new_file_has_no_old_side(scripted):
    change = _change(scripted, "new_file")
    assert change.files == (FileDiff(None, "calc/cli.py"),) and change.spans == {}
    assert change.touched(frozenset({"code"})) == 1


def test_tangled_commit_touches_twelve_code_files(scripted):
    change = _change(scripted, "tangled")
    assert change.touched(frozenset({"code"})) == 12
    assert change.spans["pkg/m07.py"] == ((1, 1),)


@pytest.mark.parametrize("path,kind", [
    ("calc/ops.py", "code"), ("web/app.js", "code"), ("cmd/server/main.go", "code"), ("src/lib.rs", "code"),
    ("src/main/java/org/x/Parser.java", "code"), ("src/util.c", "code"), ("include/util.h", "code"),
    ("tests/test_ops.py", "test"), ("pkg/server_test.go", "test"), ("src/app.spec.ts", "test"),
    ("src/test/java/org/x/ParserTest.java", "test"), ("lib/__tests__/a.js", "test"), ("conftest.py", "test"),
    ("tests/unit/acl.tcl", "test"), ("tests/assets/default.conf", "test"), ("tests/README.md", "docs"),
    ("README.md", "docs"), ("docs/guide.rst", "docs"), ("NOTES.txt", "docs"),
    ("setup.cfg", "other"), ("package.json", "other"), ("Makefile", "other"), ("assets/logo.png", "other"),
])
def test_kinds_come_from_the_detected_language(path, kind):
    assert kind_of(path) == kind


def test_a_reapplied_change_has_the_patch_id_of_the_first(scripted):
    names = ("floats", "picked", "exact", "twin", "debug")
    by_sha = patch_ids(scripted.path, {scripted.shas[n]: _change(scripted, n).patch for n in names})
    ids = {n: by_sha[scripted.shas[n]] for n in names}
    assert ids["floats"] == ids["picked"] and ids["exact"] == ids["twin"]
    assert len({ids["floats"], ids["exact"], ids["debug"]}) == 3
