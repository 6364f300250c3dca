"""SQLite FTS5: hostile query syntax never errors and is searched as plain words; both tokenizers."""
from __future__ import annotations

import pytest

from retrievers.sparse.sqlite_fts5 import SQLiteFTS5Index
from retrievers.sparse.terms import QuotedOr
from retrievers.sparse.tokenizer import CodeTokenizer

DOCS = {
    "a.py:1-3": "def parse_json(text):\n    return json.loads(text)",
    "b.py:1-3": "class HttpClient:\n    def send(self, request): ...",
    "c.py:1-3": "parsing html AND xml is hard, NEAR impossible",
    "d.py:1-3": "col = term * 2  # multiply the column by two",
    "e.py:1-3": "unicode ünïcödé 日本語 naïve",
}
HOSTILE = ['"foo AND (bar OR', "NEAR(a b)", "col:term", "*", "-", "^x", "a OR", "AND", "OR NOT",
           "{col}: x", "x + y", "'single' \"double\"", "((((", "term*", "NEAR(parse html, 2)", "\x00"]


def build(**kw) -> SQLiteFTS5Index:
    ix = SQLiteFTS5Index(**kw)
    ix.build(list(DOCS), list(DOCS.values()))
    return ix


@pytest.fixture(params=["porter", "code"])
def index(request):
    return build() if request.param == "porter" else build(tokenize="unicode61", pretokenizer=CodeTokenizer())


def ids(hits):
    return [c for c, _ in hits]


def test_hostile_queries_never_error(index):
    for hits in index.search(HOSTILE, 10):
        assert all(c in DOCS for c in ids(hits))


def test_operators_are_searched_as_words(index):
    and_hits, near_hits, col_hits, star = index.search(["AND", "NEAR(a b)", "col:term", "*"], 10)
    assert ids(and_hits) == ["c.py:1-3"]  # the word "and" is in c, not an operator
    assert "c.py:1-3" in ids(near_hits)  # "near" is a word of c
    assert set(ids(col_hits)) == {"d.py:1-3"}  # not a column filter: the words col and term
    assert star == []  # no word at all


def test_quoted_or_escapes_quotes_from_any_tokenizer():
    expr = QuotedOr(lambda text: text.split())('say "hi" say')
    assert expr == '"say" OR """hi"""'


def test_porter_stems_and_code_tokenizer_splits_identifiers():
    porter, code = build(), build(tokenize="unicode61", pretokenizer=CodeTokenizer())
    assert "c.py:1-3" in ids(porter.search(["parses"], 10)[0])  # parses ~ parsing via porter
    assert "c.py:1-3" not in ids(code.search(["parses"], 10)[0])  # no stemming
    assert ids(code.search(["HttpClient"], 10)[0]) == ["b.py:1-3"]
    assert ids(code.search(["parseJson"], 10)[0])[0] == "a.py:1-3"  # parse + json + parsejson
    assert ids(porter.search(["parseJson"], 10)[0]) == []  # unicode61 keeps parsejson whole


def test_unicode_words_match(index):
    hits = index.search(["ünïcödé"], 10)[0]
    assert ids(hits) == (["e.py:1-3"])


def test_scores_are_higher_for_better_matches():
    hits = build().search(["json loads text"], 10)[0]
    assert ids(hits)[0] == "a.py:1-3" and all(s > 0 for _, s in hits)


def test_a_tokenize_spec_with_quotes_is_refused():
    with pytest.raises(ValueError):
        SQLiteFTS5Index(tokenize="porter') ; DROP TABLE x; --")
