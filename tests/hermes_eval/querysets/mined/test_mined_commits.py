"""The first-parent walk: oldest first, a merged branch's own commits unseen, the range by committer
date; a SOURCE that is not a repository, a bad ref or a bad date is one line naming what to fix."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.mined.commits import check_repository, parse_date, resolve_ref, walk


def test_walk_is_first_parent_oldest_first_with_committer_dates(scripted):
    commits = walk(scripted.path, "HEAD")
    names = {sha: name for name, sha in scripted.shas.items()}
    assert [names[c.sha] for c in commits] == [
        "root", "div_guard", "bot", "names_file", "debug", "revert", "floats", "exact", "picked", "twin",
        "test_only", "docs_only", "tangled", "short", "rename", "binary", "merge", "new_file"]  # not "feature"
    merge = commits[-2]
    assert merge.parents == (scripted.shas["binary"], scripted.shas["feature"])
    assert commits[0].parents == () and commits[1].date == "2022-12-29T10:00:00+00:00"
    assert commits[2].author == "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"
    assert commits[1].subject == "Guard against division by zero"
    assert commits[1].trailers.startswith("Signed-off-by: Ann Dev")


def test_range_is_since_inclusive_until_exclusive(scripted):
    since = parse_date("2023-01-02", "since")
    until = parse_date("2023-01-05T10:00:00+00:00", "until")
    names = {sha: name for name, sha in scripted.shas.items()}
    assert [names[c.sha] for c in walk(scripted.path, "main", since, until)] == ["names_file", "debug", "revert"]
    assert since == datetime(2023, 1, 2, tzinfo=timezone.utc)


def test_bad_inputs_are_one_line_errors(scripted, tmp_path):
    with pytest.raises(UserError, match=r"SOURCE .*: not a git repository; give a local clone or a bare mirror"):
        check_repository(tmp_path / "nothing-here")
    (tmp_path / "plain").mkdir()
    with pytest.raises(UserError, match=r"not a git repository"):
        check_repository(tmp_path / "plain")
    with pytest.raises(UserError, match=r"a folder inside the repository at .*, not its root"):
        check_repository(scripted.path / "calc")
    with pytest.raises(UserError, match=r"ref='no-such-branch': no such commit"):
        resolve_ref(scripted.path, "no-such-branch")
    with pytest.raises(UserError, match=r"since='2023-02-30': not a date; write YYYY-MM-DD") as err:
        parse_date("2023-02-30", "since")
    assert "\n" not in str(err.value)
