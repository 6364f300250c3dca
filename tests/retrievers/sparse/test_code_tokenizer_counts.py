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


def test_memo_counts_use_the_inner_counts_and_intern_each_token_once():
    memo = MemoTokenizer(CodeTokenizer())
    n, freqs = memo.counts("parseJSON parse json")
    assert (n, freqs) == (5, {"parse": 2, "json": 2, "parsejson": 1})
    _, again = memo.counts("json parse")
    assert next(t for t in again if t == "json") is next(t for t in freqs if t == "json")
    assert memo.computed == 2
