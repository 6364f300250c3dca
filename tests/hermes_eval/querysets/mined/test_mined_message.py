"""A message as a query: the trailer block git reads is taken off (checked against
`git interpret-trailers --parse`), the subject is never read as trailers; reverts and cherry-picks."""
from __future__ import annotations

import subprocess

from scripted_repo import DIV_MESSAGE, DIV_QUERY

from hermes_eval.querysets.mined.message import (clean, cherry_picked_from, is_revert, reverted,
                                                   word_count)


def _git_trailers(message: str) -> list[str]:
    out = subprocess.run(["git", "interpret-trailers", "--parse"], input=message, capture_output=True, text=True,
                         check=True).stdout
    return out.splitlines()


def test_trailers_git_parses_are_removed_and_nothing_else(scripted):
    commit = scripted.git("log", "-1", "--format=%(trailers)", scripted.shas["div_guard"])
    query = clean(DIV_MESSAGE, commit)
    assert query == DIV_QUERY
    parsed = _git_trailers(DIV_MESSAGE)
    assert parsed == ["Signed-off-by: Ann Dev <ann@example.com>", "Co-authored-by: Bob Smith <bob@example.com>",
                      "Change-Id: I0123456789abcdef"]
    assert not any(t.split(":", 1)[1].strip() in query for t in parsed)


def test_a_key_value_subject_or_body_is_not_a_trailer_block():
    for message in ("Fix: thing in parser\n", "Fix the parser\n\nReviewed the tests: all pass.\n",
                    "Fix the parser\n\nNote: the cache is cold after this.\nIt warms in a minute.\n"):
        assert _git_trailers(message) == []  # nor does git read one
        assert clean(message, "") == message.strip()
    picked = "Port the fix\n\nWhy it matters.\n\nSigned-off-by: A <a@a>\n(cherry picked from commit 0123456789abcdef)\n"
    assert _git_trailers(picked) == ["Signed-off-by: A <a@a>"]
    assert clean(picked, "Signed-off-by: A <a@a>\n(cherry picked from commit 0123456789abcdef)\n") == \
        "Port the fix\n\nWhy it matters."
    assert cherry_picked_from(picked) == ["0123456789abcdef"]


def test_reverts_and_words():
    message = 'Revert "Log every call"\n\nThis reverts commit 1e2d067abc.\n'
    assert is_revert(message) and reverted(message) == ["1e2d067abc"]
    assert is_revert("Back out the cache\n\nThis reverts commit abcdef1234567.")
    assert not is_revert("Reverting to the old parser behaviour was wrong; keep the new one")
    assert word_count("Fix typo") == 2 and word_count("snake_case_name: x.y") == 3


def test_the_last_paragraph_goes_whole_when_git_log_reads_a_trailer_block_there(tmp_path):
    """What the README says: the query drops the last paragraph when `git log --format=%(trailers)` prints it,
    though `git interpret-trailers --parse` prints less (the trailer lines alone) or nothing (a paragraph whose
    only trailer-like line is a cherry-pick note); one trailer in five lines is no block, and nothing goes."""
    from scripted_repo import Scripted, day

    from hermes_eval.querysets.mined.commits import walk

    messages = {"picked": ("Port the cache fix\n\nThe cache kept stale keys.\n"
                           "(cherry picked from commit 0123456789abcdef)\n", []),
                "quarter": ("Port the cache fix\n\nOne.\nTwo.\nThree.\nSigned-off-by: A <a@a>\n",
                            ["Signed-off-by: A <a@a>"]),
                "fifth": ("Port the cache fix\n\nOne.\nTwo.\nThree.\nFour.\nSigned-off-by: A <a@a>\n", [])}
    r = Scripted(tmp_path / "trailers")
    for i, (name, (message, _)) in enumerate(messages.items()):
        r.commit(name, day(i + 1), {"cache.py": f"SIZE = {i}\n"}, message)
    commits = {c.sha: c for c in walk(r.path, "HEAD")}
    for name, (message, parsed) in messages.items():
        commit = commits[r.shas[name]]
        assert _git_trailers(message) == parsed, name
        if name == "fifth":
            assert commit.trailers.strip() == "" and clean(commit.message, commit.trailers) == message.strip()
        else:
            assert commit.trailers.strip() == message.split("\n\n", 1)[1].strip(), name  # the whole paragraph
            assert clean(commit.message, commit.trailers) == "Port the cache fix", name
