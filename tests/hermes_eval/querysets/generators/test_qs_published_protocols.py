"""The published protocols leak the query into the gold; RepoEval-style does not. Hygiene shows it."""
from __future__ import annotations

from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.judge.hygiene import check
from hermes_eval.querysets.generators.published_protocols import CodeRAGBenchQueries, SiaCodeQueries, windows
from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from hermes_eval.core import Span


def test_coderag_windows_match_the_published_grid():
    # centres 0, 10, 20, ...; [c - 10, c + 10) clipped, as 1-based inclusive spans
    assert windows(45, 20, 10) == [(1, 10), (1, 20), (11, 30), (21, 40), (31, 45)]


def test_sia_code_gold_is_the_target_file(shop_corpus):
    qs = SiaCodeQueries(min_context_chars=10).generate(shop_corpus, "t")
    q = {q.qid: q for q in qs.queries}["shop/cart.py:23-23:line"]
    assert q.gold == (Span("shop/cart.py", 1, 35),) and q.exclude == ()
    assert len(q.query) == 500 or q.meta["context_start"] == 1
    assert q.kind == "sia-code-line" and qs.manifest["protocol"] == "sia-code"
    assert qs.manifest["leaks_by_design"] is True


def test_coderag_gold_windows_overlap_prompt_and_hole(shop_corpus):
    qs = CodeRAGBenchQueries(min_context_chars=10).generate(shop_corpus, "t")
    q = {q.qid: q for q in qs.queries}["shop/cart.py:23-23:line"]
    assert q.gold == (Span("shop/cart.py", 1, 10), Span("shop/cart.py", 1, 20), Span("shop/cart.py", 11, 30),
                      Span("shop/cart.py", 21, 35))
    assert q.exclude == ()


def test_leak_shares_by_protocol(shop_corpus):
    def shares(gen):
        qs = gen.generate(shop_corpus, "t")
        h = check(qs, mask_corpus(shop_corpus, qs.masks))
        return h.self_retrieval_share, h.leak_share

    sia_self, sia_leak = shares(SiaCodeQueries(min_context_chars=10))
    assert sia_self == 1.0 and sia_leak == 1.0
    _, crb_leak = shares(CodeRAGBenchQueries(min_context_chars=10))
    assert crb_leak >= 0.9
    for level in ("line", "api", "function"):
        assert shares(RepoEvalQueries(level=level, context_lines=5, min_body_lines=2)) == (0.0, 0.0)
