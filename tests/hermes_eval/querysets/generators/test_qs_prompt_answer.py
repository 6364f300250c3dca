"""The answer_in_prompt flag (both reasons, every level), the option that drops such tasks, and
the flag's round trip through the stored formats."""
from __future__ import annotations

import json

import pytest
from qs_repos import write_repo

from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.generators.prompt_answer import first_full_line
from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from hermes_eval.querysets.store import load_queryset, save_queryset
from hermes_eval.core import Span

# util.py: emit 1-2, build 5-6; app.py: first 4-6, second 9-11 (line 10 repeats line 5)
REPEAT = {
    "util.py": '''\
        def emit(record):
            return record


        def build(name, size):
            return {"name": name, "size": size}
        ''',
    "app.py": '''\
        from util import build, emit


        def first():
            payload = {"name": "alpha", "size": 1, "tags": []}
            return emit(payload)


        def second():
            payload = {"name": "alpha", "size": 1, "tags": []}
            return build(payload, 2)
        ''',
}


@pytest.fixture
def repeat_corpus(tmp_path):
    root = write_repo(tmp_path / "repeat_repo", REPEAT)
    return load_corpus([str(root)], name="repeat", cache_dir=tmp_path / "cache")


def _by_qid(gen, corpus):
    return {q.qid: q for q in gen.generate(corpus, "t").queries}


def test_every_gold_symbol_already_used_in_the_prompt(shop_corpus):
    got = _by_qid(RepoEvalQueries(level="line", context_lines=3, min_context_chars=10), shop_corpus)
    # line 25 `pricing.net_price(subtotal, 0)`; line 24 of its prompt (22-24) calls net_price
    q = got["shop/cart.py:25-25:line"]
    assert q.gold == (Span("shop/pricing.py", 5, 7),)
    assert q.meta["answer_in_prompt"] is True and q.meta["answer_in_prompt_reason"] == "symbols_in_prompt"
    # line 23 `pr.total_price(...)`: total_price appears nowhere in lines 20-22
    q = got["shop/cart.py:23-23:line"]
    assert q.meta["answer_in_prompt"] is False and "answer_in_prompt_reason" not in q.meta


def test_a_long_prompt_line_repeated_in_the_hole(repeat_corpus):
    got = _by_qid(RepoEvalQueries(level="function", min_body_lines=2), repeat_corpus)
    q = got["app.py:10-11:function"]
    assert q.gold == (Span("util.py", 5, 6),)  # build: not used in the prompt, only imported
    assert q.meta["answer_in_prompt"] is True and q.meta["answer_in_prompt_reason"] == "line_repeated"
    # the repeated line has 50 characters stripped: "more than 50" no longer counts it
    strict = _by_qid(RepoEvalQueries(level="function", min_body_lines=2, answer_line_min_chars=50), repeat_corpus)
    assert strict["app.py:10-11:function"].meta["answer_in_prompt"] is False
    looser = _by_qid(RepoEvalQueries(level="function", min_body_lines=2, answer_line_min_chars=49), repeat_corpus)
    assert looser["app.py:10-11:function"].meta["answer_in_prompt"] is True


@pytest.mark.parametrize("level", ["line", "api", "function"])
def test_the_flag_is_a_boolean_on_every_task_at_every_level(shop_corpus, level):
    qs = RepoEvalQueries(level=level, context_lines=3, min_context_chars=10, min_body_lines=2) \
        .generate(shop_corpus, "t")
    assert qs.queries and all(type(q.meta["answer_in_prompt"]) is bool for q in qs.queries)


def test_drop_answer_in_prompt_skips_and_counts(shop_corpus, repeat_corpus):
    for gen, corpus in ((RepoEvalQueries(level="line", context_lines=3, min_context_chars=10), shop_corpus),
                        (RepoEvalQueries(level="function", min_body_lines=2), repeat_corpus)):
        kept = gen.generate(corpus, "t")
        flagged = {q.qid for q in kept.queries if q.meta["answer_in_prompt"] is True}
        assert flagged
        dropped = RepoEvalQueries(**{**gen.params(), "drop_answer_in_prompt": True}).generate(corpus, "t")
        assert {q.qid for q in dropped.queries} == {q.qid for q in kept.queries} - flagged
        assert dropped.manifest["skipped"]["answer_in_prompt"] == len(flagged)
        assert "answer_in_prompt" not in kept.manifest["skipped"]
        assert dropped.manifest["params"]["drop_answer_in_prompt"] is True


def test_flags_survive_the_parquet_and_jsonl_stores(shop_corpus, tmp_path):
    qs = RepoEvalQueries(level="line", context_lines=3, min_context_chars=10).generate(shop_corpus, "t")
    want = {q.qid: (q.meta["answer_in_prompt"], q.meta.get("answer_in_prompt_reason")) for q in qs.queries}
    assert set(want.values()) >= {(True, "symbols_in_prompt"), (False, None)}
    save_queryset(qs, tmp_path / "parquet")
    jsonl = tmp_path / "jsonl"
    jsonl.mkdir()
    (jsonl / "queries.jsonl").write_text("".join(json.dumps(q.to_dict()) + "\n" for q in qs.queries))
    for folder in (tmp_path / "parquet", jsonl):
        back = load_queryset(folder)
        assert {q.qid: (q.meta["answer_in_prompt"], q.meta.get("answer_in_prompt_reason"))
                for q in back.queries} == want
        assert sum(q.meta.get("answer_in_prompt") is True for q in back.queries) == \
            sum(v[0] is True for v in want.values())


def test_a_character_cut_prompt_counts_whole_lines_only():
    lines = ["low = net_price(subtotal, discount)", "x = 1", "y = 2"]
    assert first_full_line("net_price(subtotal, discount)\nx = 1", lines, 1) == 2
    assert first_full_line("low = net_price(subtotal, discount)\nx = 1", lines, 1) == 1
