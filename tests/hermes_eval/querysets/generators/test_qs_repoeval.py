"""RepoEval-style generator: holes at three levels, left context, exclude, gold, skip reasons."""
from __future__ import annotations

from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from hermes_eval.core import Span


def test_line_level_gold_exclude_and_skips(shop_corpus):
    qs = RepoEvalQueries(level="line", context_lines=3, seed=1).generate(shop_corpus, "t")
    got = {q.qid: q for q in qs.queries}
    q = got["shop/cart.py:23-23:line"]
    assert q.query == '        """Total of the cart after discount and tax, with a handling fee."""\n' \
                      '        subtotal = sum(i.price for i in self.items)\n' \
                      '        self.add(Item("handling fee", 1.0))'
    assert q.gold == (Span("shop/pricing.py", 12, 14),)
    assert q.exclude == (Span("shop/cart.py", 23, 35),)
    assert q.kind == "repoeval-line" and q.meta["protocol"] == "repoeval"
    assert q.meta["ground_truth"].strip() == "value = pr.total_price(subtotal, discount)"
    assert q.meta["symbols"] == ["shop/pricing.py:total_price"]
    # add (12-14) lies outside the 3-line context (19-21 before hole 22), so it stays gold
    assert got["shop/cart.py:22-22:line"].gold == (Span("shop/cart.py", 12, 14), Span("shop/models.py", 1, 1),
                                                  Span("shop/models.py", 2, 4))
    assert "shop/cart.py:31-31:line" not in got  # self.finish() is defined after the hole
    assert "shop/cart.py:21-21:line" not in got  # uses no repository symbol
    assert qs.manifest["skipped"]["gold_after_hole"] >= 2  # count() at line 14, finish() at line 31
    assert qs.manifest["skipped"]["no_repo_symbol"] >= 1
    assert qs.manifest["protocol"] == "repoeval" and qs.manifest["leaks_by_design"] is False


def test_gold_inside_the_query_context_is_dropped(shop_corpus):
    wide = RepoEvalQueries(level="line", context_lines=20).generate(shop_corpus, "t")
    assert "shop/pricing.py:13-13:line" not in {q.qid for q in wide.queries}  # net_price is in the query
    assert wide.manifest["skipped"]["gold_in_query_context"] >= 1
    narrow = RepoEvalQueries(level="line", context_lines=3).generate(shop_corpus, "t")
    q = {q.qid: q for q in narrow.queries}["shop/pricing.py:13-13:line"]
    assert q.gold == (Span("shop/pricing.py", 5, 7),)


def test_api_and_function_levels(shop_corpus):
    api = RepoEvalQueries(level="api", context_lines=5).generate(shop_corpus, "t")
    assert {q.qid for q in api.queries} >= {"shop/cart.py:23-23:api", "shop/cart.py:24-24:api",
                                              "shop/cart.py:29-29:api"}
    assert all(q.exclude and q.exclude[0].start == q.meta["hole"][0] for q in api.queries)
    fn = RepoEvalQueries(level="function", context_lines=20, min_body_lines=2).generate(shop_corpus, "t")
    q = {q.qid: q for q in fn.queries}["shop/cart.py:21-32:function"]  # body after the docstring
    assert q.query.endswith('"""Total of the cart after discount and tax, with a handling fee."""')
    assert q.meta["ground_truth"].startswith("        subtotal = sum(")
    # add (12-14) lies in the 20-line context (1-20), finish (34-35) after the hole: both dropped
    assert set(q.gold) == {Span("shop/models.py", 1, 1), Span("shop/models.py", 2, 4),
                           Span("shop/pricing.py", 12, 14), Span("shop/pricing.py", 5, 7),
                           Span("shop/models.py", 11, 12)}


def test_context_in_characters(shop_corpus):
    qs = RepoEvalQueries(level="line", context_lines=None, context_chars=60, min_context_chars=10) \
        .generate(shop_corpus, "t")
    assert all(len(q.query) <= 60 for q in qs.queries)
    q = {q.qid: q for q in qs.queries}["shop/cart.py:24-24:line"]
    assert q.meta["context_start"] == 22  # the 60 characters start inside line 22


def test_same_seed_same_set_other_seed_differs(shop_corpus):
    def ids(seed):
        return [q.qid for q in RepoEvalQueries(level="line", context_lines=3, max_queries=4, seed=seed)
                .generate(shop_corpus, "t").queries]
    assert ids(0) == ids(0)
    assert any(ids(0) != ids(s) for s in (1, 2, 3))
