"""Each scripted commit is skipped for the reason its script gives it (the first filter that fires),
and each option moves its own commits back in."""
from __future__ import annotations

from scripted_repo import BOT

from hermes_eval.querysets.mined.commits import walk
from hermes_eval.querysets.mined.filters import BOTS, Bot, Candidate, Walk, duplicates, first_reason, registry
from hermes_eval.querysets.mined.message import clean

REASONS = {"root": "root", "div_guard": None, "bot": "bot", "names_file": None, "debug": "reverted",
           "revert": "revert", "floats": None, "exact": None, "picked": "cherry_pick", "twin": None,
           "test_only": "test_only", "docs_only": "docs_only", "tangled": "tangled", "short": "short_message",
           "rename": None, "binary": None, "merge": "merge", "new_file": "no_source_change"}


def _reasons(scripted, kinds=frozenset({"code"}), min_words=4, max_files=10, bots=BOTS):
    commits = walk(scripted.path, "HEAD")
    context = Walk(scripted.path, commits)
    filters = registry(kinds, min_words, max_files, bots)
    names = {sha: name for name, sha in scripted.shas.items()}
    cands = {names[c.sha]: Candidate(c, clean(c.message, c.trailers), context) for c in commits}
    return {n: first_reason(filters, c) for n, c in cands.items()}, cands


def test_every_commit_is_skipped_for_its_own_reason(scripted):
    reasons, cands = _reasons(scripted)
    assert reasons == REASONS
    kept = [c for n, c in cands.items() if reasons[n] is None]
    from hermes_eval.querysets.mined.changes import patch_ids
    ids = patch_ids(scripted.path, {c.commit.sha: c.change.patch for c in kept})
    assert duplicates(kept, ids) == {scripted.shas["twin"]}  # `exact` came first


def test_options_keep_what_they_name(scripted):
    reasons, _ = _reasons(scripted, kinds=frozenset({"code", "test", "docs"}), min_words=2, max_files=12, bots=())
    moved = {n for n in REASONS if REASONS[n] != reasons[n]}
    assert moved == {"test_only", "docs_only", "tangled", "short", "bot"}
    assert all(reasons[n] is None for n in moved)


def test_bot_patterns_are_case_insensitive_substrings():
    class C:  # the one field Bot reads
        class commit:
            author = f"{BOT[0]} <{BOT[1]}>"
    assert Bot().skips(C) and Bot(("DEPENDABOT",)).skips(C)
    C.commit.author = "Renovate Bot <bot@renovateapp.com>"
    assert Bot().skips(C) and not Bot(("[bot]",)).skips(C)
    C.commit.author = "Ann Dev <ann@example.com>"
    assert not Bot().skips(C)


def test_a_cherry_pick_from_another_branch_is_a_query(tmp_path):
    """The usual cherry-pick: its original sits on a side branch, outside main's first-parent walk, so the copy
    on main is the only time the change is walked and is kept; a copy of a walked commit is skipped."""
    from scripted_repo import Scripted, day

    r = Scripted(tmp_path / "picks")
    r.commit("base", day(1), {"calc/ops.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"},
             "Add the calculator operations module")
    r.git("checkout", "-q", "-b", "release", date=day(2))
    r.commit("original", day(2), {"calc/ops.py": "def add(a, b):\n    return int(a) + int(b)\n\n\n"
                                                 "def mul(a, b):\n    return a * b\n"},
             "Coerce the operands of add to integers")
    r.git("checkout", "-q", "main", date=day(3))
    r.commit("later", day(3), {"calc/ops.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n"
                                              "    return a * b * 1\n"}, "Keep multiplication explicit about its unit")
    r.git("cherry-pick", "-x", r.shas["original"], date=day(4))
    r.record("copy", day(4))
    r.git("cherry-pick", "-x", r.shas["later"], "--allow-empty", "--keep-redundant-commits", date=day(5))
    r.record("copy_of_walked", day(5))
    commits = walk(r.path, "HEAD")
    assert r.shas["original"] not in {c.sha for c in commits}  # off the first-parent walk
    context = Walk(r.path, commits)
    filters = registry(frozenset({"code"}), 4, 10, BOTS)
    names = {sha: name for name, sha in r.shas.items()}
    reasons = {names[c.sha]: first_reason(filters, Candidate(c, clean(c.message, c.trailers), context))
               for c in commits}
    assert reasons["copy"] is None
    assert reasons["copy_of_walked"] == "cherry_pick"
