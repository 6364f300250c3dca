"""CodeTokenizer.counts, which splits and counts per distinct word, equals counting its token list."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import retrievers
from retrievers.sparse.memo import MemoTokenizer
from retrievers.sparse.tokenizer import CodeTokenizer

TRICKY = ["", "   \n", "parseJSON parseJSON HTTPServer x9y", "snake_case_name __init__ _a_ 42 4x2",
          "ÄÖ naïve café", "XMLHttpRequest getXMLHttpRequest ABC abc Abc"]
SOURCES = sorted(Path(retrievers.__file__).parent.rglob("*.py"))[:40]


@pytest.mark.parametrize("tok", [CodeTokenizer(), CodeTokenizer(keep_compound=False),
                                 CodeTokenizer(split_identifiers=False), CodeTokenizer(min_len=3)],
                         ids=["default", "no-compound", "no-split", "min3"])
def test_counts_equal_counting_the_tokens(tok):
    texts = TRICKY + [p.read_text() for p in SOURCES]
    assert len(texts) > 20
    for text in texts:
        tokens = tok(text)
        n, freqs = tok.counts(text)
        assert (n, freqs) == (len(tokens), dict(Counter(tokens))), text[:60]


def test_memo_counts_use_the_inner_counts_with_one_id_per_term():
    memo = MemoTokenizer(CodeTokenizer())
    [first, again] = memo.term_counts(["parseJSON parse json", "json parse"])
    assert (first.length, first.as_dict(memo.terms)) == (5, {"parse": 2, "json": 2, "parsejson": 1})
    assert (again.length, again.as_dict(memo.terms)) == (2, {"json": 1, "parse": 1})
    assert set(again.terms.tolist()) < set(first.terms.tolist())  # the same term, the same id
    assert memo.computed == 2
