"""Hygiene counts on crafted leaks and defects."""
from __future__ import annotations

from qs_repos import write_repo

from hermes_eval.corpus import load_corpus
from hermes_eval.judge.hygiene import check
from hermes_eval.judge.leaks import approx_tokens, shares_run
from hermes_eval.core.queryset import QuerySet
from hermes_eval.core import Query, Span

LONG_LINE = "message = 'the quick brown fox jumps over the lazy dog while the cat watches from the " \
            "warm windowsill and the rain keeps falling on the old tin roof of the garden shed at the " \
            "end of the long and winding road that leads home'"
BODY = [f"    value_{i} = compute_something_specific(argument_{i}, option_{i})" for i in range(12)]
FILE = "\n".join(["def target():", *BODY, f"    {LONG_LINE}", "    return value_0", ""])


def _qs(*queries):
    return QuerySet(name="h", queries=tuple(queries))


def test_counts_each_problem(tmp_path):
    corpus = load_corpus([str(write_repo(tmp_path / "r", {"t.py": FILE, "other.py": "x = 1\n"}))], name="r")
    gold = (Span("t.py", 1, 15),)
    five_lines = "\n".join(BODY[2:7] + ["    totally = different(code)", "    and_more = stuff()"])
    queries = [
        Query("verbatim", "value_3 = compute_something_specific(argument_3, option_3)", gold),
        Query("lines", five_lines, gold),
        Query("chars", "prefix words " + LONG_LINE[20:240] + " suffix", gold),
        Query("clean", "how are values computed for each argument", gold),
        Query("empty", "anything at all", ()),
        Query("outside", "anything else", (Span("missing.py", 1, 2),)),
        Query("clean", "a duplicate qid", (Span("other.py", 1, 1),)),
        Query("excluded", "value_3 = compute_something_specific(argument_3, option_3)", gold,
              exclude=(Span("t.py", 1, 16),)),
    ]
    h = check(_qs(*queries), corpus)
    assert h.queries == 8
    assert h.self_retrieval == 1  # only "verbatim": the excluded copy does not count
    assert h.leak == 3  # verbatim + 5 consecutive lines + a 200+ character run
    assert h.empty_gold == 1 and h.gold_outside_corpus == 1 and h.duplicate_qids == 1
    assert h.exclude_covers_gold == 1
    d = h.to_dict()
    assert d["leak_share"] == 0.375 and d["self_retrieval_share"] == 0.125


def test_too_long_for_the_embedder(tmp_path):
    corpus = load_corpus([str(write_repo(tmp_path / "r", {"t.py": FILE}))], name="r")
    qs = _qs(Query("short", "find values", (Span("t.py", 1, 2),)),
             Query("long", " ".join(["word"] * 50), (Span("t.py", 1, 2),)))
    assert check(qs, corpus).too_long == 0  # no max_seq_tokens: not counted
    h = check(qs, corpus, max_seq_tokens=20)
    assert h.too_long == 1 and h.token_counter == "approx"
    h = check(qs, corpus, max_seq_tokens=20, count_tokens=lambda t: 1000, token_counter_name="fake")
    assert h.too_long == 1 and h.token_counter == "fake"  # 11 ASCII characters cannot be 21 tokens: not counted
    qs = _qs(Query("short", "find välues", (Span("t.py", 1, 2),)))  # not ASCII: counted
    assert check(qs, corpus, max_seq_tokens=20, count_tokens=lambda t: 1000).too_long == 1
    assert approx_tokens("def f(x): return x") == 8 + 2  # def f ( x ) : return x, CLS, SEP


def test_shares_run_finds_overlap_at_any_offset():
    gold = "z" * 37 + "abcdefghij" * 30 + "y" * 11
    assert shares_run("xx" + ("abcdefghij" * 30)[7:220] + "qq", gold, 200)
    assert not shares_run(("abcdefghij" * 30)[:150], gold, 200)
