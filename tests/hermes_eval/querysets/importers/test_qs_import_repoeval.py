"""RepoEval jsonl (RepoCoder's format) against a repository snapshot folder."""
from __future__ import annotations

import json

import pytest
from qs_repos import SHOP, write_repo

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers.repoeval import Options, run
from hermes_eval.core import Span


def _rows(snapshot):
    lines = (snapshot / "shop_repo" / "shop" / "cart.py").read_text().split("\n")

    def row(task, line_no, truth_lines, ctx0=0, **extra):
        meta = {"task_id": task, "ground_truth": "\n".join(truth_lines) + "\n",
                "fpath_tuple": ["shop_repo", "shop", "cart.py"], "context_start_lineno": ctx0, **extra}
        meta.update({"lineno": line_no} if "function_name" in extra else {"line_no": line_no})
        return {"prompt": "\n".join(lines[ctx0:line_no]) + "\n", "metadata": meta}

    return [
        row("shop_repo/0", 22, [lines[22]]),                       # 0-based 22 = line 23: pr.total_price
        row("shop_repo/1", 20, [lines[20]], ctx0=5),               # line 21: no repository symbol
        row("shop_repo/2", 20, lines[20:32], function_name="checkout"),  # the body of checkout
        {"prompt": "x = 1\n", "metadata": {"task_id": "shop_repo/3", "ground_truth": "y = 2",
                                           "fpath_tuple": ["shop_repo", "gone.py"], "context_start_lineno": 0,
                                           "line_no": 1}},
    ]


@pytest.fixture
def fixture(tmp_path):
    snapshot = tmp_path / "repositories"
    write_repo(snapshot / "shop_repo", SHOP)
    path = tmp_path / "line_level_completion_test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _rows(snapshot)))
    return path, snapshot


def test_import_resolves_gold_and_counts_skips(fixture, tmp_path):
    path, snapshot = fixture
    qs = run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="re", context_lines=None))
    got = {q.qid: q for q in qs.queries}
    assert set(got) == {"shop_repo/0", "shop_repo/2"}
    q = got["shop_repo/0"]
    assert q.gold == (Span("shop_repo/shop/pricing.py", 12, 14),)
    assert q.exclude == (Span("shop_repo/shop/cart.py", 1, 35),)  # the hole, the rest, and the prompt's own lines
    assert qs.manifest["params"]["exclude_context"] is True
    assert q.query.endswith('self.add(Item("handling fee", 1.0))') and q.meta["context_start"] == 1
    assert q.kind == "repoeval-line" and q.repo == "shop_repo"
    fn = got["shop_repo/2"]
    assert fn.meta["hole"] == [21, 32] and fn.meta["function_name"] == "checkout"
    assert Span("shop_repo/shop/models.py", 11, 12) in fn.gold
    assert q.meta["answer_in_prompt"] is False and fn.meta["answer_in_prompt"] is False
    assert qs.manifest["skipped"] == {"file_not_in_snapshot": 1, "ground_truth_mismatch": 0, "no_repo_symbol": 1,
                                     "repo_not_selected": 0}
    assert qs.manifest["repeated_task_ids"] == {} and q.meta["scope"] == "shop_repo/"
    assert qs.manifest["level"] == "line" and qs.manifest["protocol"] == "repoeval"


def test_published_protocol_on_the_same_rows(fixture, tmp_path):
    path, snapshot = fixture
    qs = run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="sia", protocol="sia-code"))
    q = {q.qid: q for q in qs.queries}["shop_repo/0"]
    assert q.gold == (Span("shop_repo/shop/cart.py", 1, 35),) and q.exclude == ()
    assert len(q.query) == 500 or q.meta["context_start"] == 1
    assert qs.manifest["leaks_by_design"] is True


def test_malformed_rows_name_line_and_field(fixture, tmp_path):
    path, snapshot = fixture
    rows = path.read_text().splitlines()
    bad = json.loads(rows[0])
    del bad["metadata"]["fpath_tuple"]
    path.write_text(rows[0] + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(UserError, match=r"line 2: missing field 'metadata.fpath_tuple'"):
        run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="x"))
    bad = json.loads(rows[0])
    bad["metadata"]["line_no"] = "22"
    path.write_text(json.dumps(bad) + "\n")
    with pytest.raises(UserError, match=r"line 1: field 'metadata.line_no' must be int"):
        run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="x"))
    path.write_text(rows[0] + "\n\n{oops\n")
    with pytest.raises(UserError, match=r"line 3: invalid JSON"):
        run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="x"))


def test_answer_in_prompt_options_reach_the_judge(fixture, tmp_path):
    path, snapshot = fixture
    qs = run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="re", context_lines=None,
                     drop_answer_in_prompt=True, answer_line_min_chars=3))
    assert qs.manifest["params"]["drop_answer_in_prompt"] is True
    assert qs.manifest["params"]["answer_line_min_chars"] == 3
    assert all(q.meta["answer_in_prompt"] is False for q in qs.queries)  # flagged tasks were dropped
    with pytest.raises(UserError, match="drop_answer_in_prompt= applies to protocol=repoeval only"):
        run(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d2", name="sia", protocol="sia-code",
                    drop_answer_in_prompt=True))


def test_exclude_context_false_leaves_the_prompt_searchable(fixture, tmp_path):
    from hermes_eval.querysets.importers.repoeval import _judge
    from hermes_eval.querysets.holes import Hole
    from hermes_eval.querysets.python.index import ModuleIndex

    path, snapshot = fixture
    judge = _judge(Options(tasks=path, snapshot=snapshot, dest=tmp_path / "d", name="re"), [])
    assert judge.exclude_context is True and judge.context_lines == 20
    lines = (snapshot / "shop_repo" / "shop" / "cart.py").read_text().split("\n")
    index = ModuleIndex((str(p.relative_to(snapshot)), p.read_text()) for p in snapshot.rglob("*.py"))
    hole = Hole("shop_repo/shop/cart.py", "shop_repo", "line", 23, 23)
    from dataclasses import replace
    for flag, start in ((True, 3), (False, 23)):
        got = replace(judge, exclude_context=flag).judge(hole, 3, 35, index)
        assert got[1] == (Span("shop_repo/shop/cart.py", start, 35),)
