"""The term-count store: a text's counts are made once per tokenizer, read back by a later memo (a
re-run, another arm, a shard) equal to counting again; a damaged row is dropped and counted again."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import retrievers
from hermes_eval.cache.count_store import CountStore
from retrievers.sparse.bm25s import BM25SIndex
from retrievers.sparse.english import BM25STextTokenizer
from retrievers.sparse.memo import MemoTokenizer, memoize_tokenizers
from retrievers.sparse.rank_bm25 import RankBM25Index
from retrievers.sparse.tokenizer import CodeTokenizer, GPT2PreTokenizer

TEXTS = [p.read_text() for p in sorted(Path(retrievers.__file__).parent.rglob("*.py"))[:30]] + ["", "x"]


@pytest.mark.parametrize("make", [CodeTokenizer, BM25STextTokenizer, GPT2PreTokenizer],
                         ids=["code", "bm25s-english", "gpt2"])
def test_a_second_memo_reads_every_count_and_gets_what_counting_gives(tmp_path, make):
    store = CountStore(tmp_path / "terms.sqlite")
    first = MemoTokenizer(make(), store)
    made = [c.as_dict(first.terms) for c in first.term_counts(TEXTS)]
    assert (first.computed, first.loaded) == (len(set(TEXTS)), 0)
    again = MemoTokenizer(make(), CountStore(tmp_path / "terms.sqlite"))
    read = again.term_counts(TEXTS)
    assert again.computed == 0 and again.loaded == len(set(TEXTS))
    assert [c.as_dict(again.terms) for c in read] == made
    assert [c.length for c in read] == [len(make()(t)) for t in TEXTS]
    # the order a text's terms were counted in is kept (rank-bm25's idf sums in that order)
    assert [list(c.as_dict(again.terms)) for c in read] == [list(m) for m in made]


def test_tokenizer_settings_key_the_counts(tmp_path):
    store = CountStore(tmp_path / "terms.sqlite")
    MemoTokenizer(CodeTokenizer(), store).term_counts(TEXTS)
    other = MemoTokenizer(CodeTokenizer(min_len=3), store)
    other.term_counts(TEXTS)
    assert other.loaded == 0 and other.computed == len(set(TEXTS))


def test_a_damaged_row_is_dropped_and_the_text_counted_again(tmp_path):
    path = tmp_path / "terms.sqlite"
    MemoTokenizer(CodeTokenizer(), CountStore(path)).term_counts(TEXTS)
    db = sqlite3.connect(path)
    db.execute("UPDATE counts SET length = length + 1 WHERE rowid = (SELECT min(rowid) FROM counts)")
    db.commit()
    db.close()
    store = CountStore(path)
    memo = MemoTokenizer(CodeTokenizer(), store)
    got = memo.term_counts(TEXTS)
    assert (memo.computed, memo.loaded, store.corrupt_rows) == (1, len(set(TEXTS)) - 1, 1)
    assert [c.length for c in got] == [len(CodeTokenizer()(t)) for t in TEXTS]


def test_a_term_holding_the_separator_is_not_stored(tmp_path):
    store = CountStore(tmp_path / "terms.sqlite")
    store.put("tok", {"a": (2, ["x\0y", "z"], b"\1\0\0\0\1\0\0\0"), "b": (1, ["z"], b"\1\0\0\0")})
    assert set(store.get("tok", ["a", "b"])) == {"b"}


@pytest.mark.parametrize("make", [RankBM25Index, BM25SIndex], ids=["rank_bm25", "bm25s"])
def test_an_index_over_stored_counts_ranks_as_a_fresh_one(tmp_path, make):
    ids, queries = [f"d{i}" for i in range(len(TEXTS))], ["tokenizer memo counts", "dense vectors exact search"]
    fresh = make()
    fresh.build(ids, TEXTS)
    for _ in range(2):  # the first run counts and stores, the second reads
        memos: dict = {}
        ix = make()
        memoize_tokenizers({"sparse": ix}, memos, CountStore(tmp_path / "terms.sqlite"))
        ix.build(ids, TEXTS)
        assert ix.search(queries, 5) == fresh.search(queries, 5)
    assert memos["sparse"].loaded == len(set(TEXTS)) and memos["sparse"].computed == len(set(queries))
