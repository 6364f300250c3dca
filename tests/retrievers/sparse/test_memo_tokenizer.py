"""Indexes over snapshots that share texts: each text tokenized once, results as without the memo."""
from __future__ import annotations

import pytest

from retrievers.sparse.bm25s import BM25SIndex
from retrievers.sparse.memo import MemoTokenizer, memoize_tokenizers
from retrievers.sparse.rank_bm25 import RankBM25Index
from retrievers.sparse.tokenizer import CodeTokenizer

SNAPSHOTS = [
    {"a.py": "def parse_config(path):\n    return load(path)\n", "b.py": "class HttpClient:\n    pass\n",
     "c.py": "def render_template(name):\n    return name\n"},
    {"a.py": "def parse_config(path):\n    return load(path)\n", "b.py": "class HttpClient:\n    timeout = 3\n",
     "c.py": "def render_template(name):\n    return name\n", "d.py": "def parse_header(raw):\n    return raw\n"},
]
QUERIES = ["parse the config file", "http client timeout", "render a template by name"]


@pytest.mark.parametrize("make", [RankBM25Index, BM25SIndex], ids=["rank_bm25", "bm25s"])
def test_memoized_builds_rank_as_fresh_ones_and_tokenize_each_text_once(make):
    memos: dict = {}
    for files in SNAPSHOTS:
        ids, docs = list(files), list(files.values())
        plain, shared = make(), make()
        plain.build(ids, docs)
        memoize_tokenizers({"sparse": shared}, memos)
        shared.build(ids, docs)
        assert shared.search(QUERIES, 3) == plain.search(QUERIES, 3)
    memo = memos["sparse"]
    assert isinstance(memo, MemoTokenizer)
    distinct = {t for files in SNAPSHOTS for t in files.values()} | set(QUERIES)
    assert memo.computed == len(distinct) == 8  # a.py and c.py tokenized once for both snapshots


def test_memo_returns_the_inner_tokens_with_one_string_per_token():
    memo = MemoTokenizer(CodeTokenizer())
    first, second = memo("parseConfig parse_config"), memo("config parse")
    assert first == CodeTokenizer()("parseConfig parse_config")
    assert first[0] is second[1] and memo("parseConfig parse_config") is first
    assert (memo.computed, memo.reused) == (2, 1)


def test_retain_keeps_only_the_texts_still_in_use():
    memo = MemoTokenizer(CodeTokenizer())
    for text in ("alpha beta", "gamma delta", "epsilon"):
        memo(text)
        memo.term_counts([text])
    memo.retain(["gamma delta", "unseen"])
    assert set(memo.memo) == set(memo.counted) == {"gamma delta"}
    memo.term_counts(["gamma delta"])
    assert memo.computed == 6 and memo.reused == 1  # kept: not tokenized again
