"""Auto generators: leading comments, symbol names, docstrings; masks, de-duplication, seeding."""
from __future__ import annotations

from qs_repos import write_repo

from hermes_eval.corpus import load_corpus
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.querysets.generators.comments import LeadingCommentQueries
from hermes_eval.querysets.generators.docstrings import DocstringQueries
from hermes_eval.judge.hygiene import check
from hermes_eval.querysets.sampling import stratified_sample
from hermes_eval.querysets.generators.symbols import SymbolNameQueries, symbol_words
from hermes_eval.core import Query, Span

BODY_COMMENT = {"util/text.py": '''\
    def slugify(title):
        # Lower-case the title and join its words with dashes for URLs
        words = title.lower().split()
        return "-".join(words)


    def shout(text):
        # noqa: E501
        return text.upper()
    '''}


def test_leading_comments_above_and_in_body_are_masked(shop, tmp_path):
    write_repo(shop, BODY_COMMENT)
    corpus = load_corpus([str(shop)], name="shop")
    qs = LeadingCommentQueries(min_words=4).generate(corpus, "t")
    got = {q.qid: q for q in qs.queries}
    above = got["shop/pricing.py:12:total_price"]
    assert above.query == "Add tax to the discounted amount and round it to cents."
    assert above.gold == (Span("shop/pricing.py", 12, 14),)
    assert above.meta["mask"] == [{"path": "shop/pricing.py", "start": 10, "end": 11}]
    body = got["util/text.py:1:slugify"]
    assert body.meta["comment_position"] == "body" and body.meta["mask"][0]["start"] == 2
    assert "util/text.py:7:shout" not in got  # a pragma is not prose
    masked = mask_corpus(corpus, qs.masks).by_path()["shop/pricing.py"].text.split("\n")
    assert masked[9:11] == ["", ""] and masked[11].startswith("def total_price")
    assert check(qs, mask_corpus(corpus, qs.masks)).self_retrieval == 0


def test_symbol_names_hermes_style_and_lexical_by_construction(shop_corpus):
    assert symbol_words("calculate_bmi") == ["calculate", "bmi"]
    assert symbol_words("parseHTTPResponse") == ["parse", "http", "response"]
    qs = SymbolNameQueries().generate(shop_corpus, "t")
    got = {q.qid: q for q in qs.queries}
    assert got["shop/pricing.py:12:total_price"].query == "how does total price work"
    assert got["shop/pricing.py:12:total_price"].gold == (Span("shop/pricing.py", 12, 14),)
    assert not qs.masks  # nothing masked: the name is the code
    assert qs.manifest["skipped"]["dunder"] >= 3 and qs.manifest["skipped"]["short_name"] >= 1
    assert "lexical" in qs.manifest["notes"]
    h = check(qs, shop_corpus)
    assert h.lexical_containment == h.queries and h.self_retrieval == 0


def test_duplicate_texts_are_dropped(tmp_path):
    repo = write_repo(tmp_path / "dups", {"a.py": "def load_config():\n    pass\n",
                                          "b.py": "def load_config():\n    return 1\n\n\ndef save_config():\n    pass\n"})
    qs = SymbolNameQueries().generate(load_corpus([str(repo)], name="d"), "t")
    assert [q.query for q in qs.queries] == ["how does save config work"]
    assert qs.manifest["skipped"]["duplicate_text"] == 2


def test_docstring_seeding_and_repo_stratification(tmp_path):
    def files(repo):
        return {f"m{i}.py": f'def f{i}():\n    """Compute the {i}th {repo} value of the series."""\n    return {i}\n'
                for i in range(12)}
    a, b = write_repo(tmp_path / "alpha", files("alpha")), write_repo(tmp_path / "beta", files("beta"))
    corpus = load_corpus([str(a), str(b)], name="two")

    def ids(seed, n=6):
        return [q.qid for q in DocstringQueries(max_queries=n, seed=seed).generate(corpus, "t").queries]
    assert ids(5) == ids(5)
    assert ids(5) != ids(6)
    assert {qid.split("/")[0] for qid in ids(5)} == {"alpha", "beta"}
    assert sum(qid.startswith("alpha/") for qid in ids(7)) == 3  # round-robin: an equal share each


def test_stratified_sample_is_order_independent():
    qs = [Query(qid=f"q{i}", query=f"text {i}", gold=(), repo="r" + str(i % 3)) for i in range(30)]
    one = stratified_sample(qs, 7, seed=3)
    two = stratified_sample(list(reversed(qs)), 7, seed=3)
    assert [q.qid for q in one] == [q.qid for q in two]
