"""One vector store for a snapshot set: each distinct text embedded and stored once, a snapshot its rows."""
from __future__ import annotations

import numpy as np
import pytest

from retrievers.dense.vector_store import VectorStore


def _snapshots(real_corpus, n=4, seed=3):
    """``n`` overlapping snapshots of the real chunks (text = the chunk's id), each with a twin of one chunk."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        picks = sorted(rng.choice(len(real_corpus.ids), size=400, replace=False))
        texts = [real_corpus.ids[i] for i in picks]
        out.append(texts + texts[:1])  # the same text twice in one snapshot
    return out


class Encoder:
    """The committed MiniLM vectors of the slice, looked up by text; counts every text it is asked for."""

    def __init__(self, corpus):
        self.row = {t: i for i, t in enumerate(corpus.ids)}
        self.vectors = corpus.vectors
        self.asked: list[str] = []

    def __call__(self, texts):
        self.asked += texts
        return self.vectors[[self.row[t] for t in texts]]


def test_each_distinct_text_is_embedded_and_stored_once(real_corpus):
    store, enc = VectorStore(block_rows=64), Encoder(real_corpus)
    snaps = _snapshots(real_corpus)
    members = [store.add(texts, enc) for texts in snaps]
    distinct = set().union(*map(set, snaps))
    assert sorted(enc.asked) == sorted(distinct) and len(store) == len(distinct)
    for texts, m in zip(snaps, members):
        assert len(m) == len(texts) and m.rows[0] == m.rows[-1]  # the twin shares its row
        assert np.array_equal(m.vectors(), enc(texts))  # the stored float32 values, in document order
    again = store.add(snaps[0], enc)
    assert store.last_added == 0 and np.array_equal(again.rows, members[0].rows)


def test_blocks_past_the_limit_are_memory_mapped_and_hold_the_same_values(real_corpus, tmp_path):
    enc = Encoder(real_corpus)
    snaps = _snapshots(real_corpus)
    spill = tmp_path / "spill"
    mapped = VectorStore(block_rows=50, mmap_above_bytes=3 * 50 * 384 * 4, spill_dir=str(spill))
    plain = VectorStore(block_rows=50)
    for texts in snaps:
        a, b = mapped.add(texts, enc), plain.add(texts, enc)
        assert np.array_equal(a.rows, b.rows) and np.array_equal(a.vectors(), b.vectors())
    assert mapped.mapped_blocks == len(mapped._blocks) - 3 > 0 and plain.mapped_blocks == 0
    assert len(list(spill.glob("block-*.npy"))) == mapped.mapped_blocks
    mapped.close()
    temp = VectorStore(block_rows=50, mmap_above_bytes=0)
    temp.add(snaps[0], enc)
    folder = temp._spill
    assert folder.is_dir() and temp.mapped_blocks == len(temp._blocks)
    temp.close()
    assert not folder.exists()  # a spill folder the store made is removed


def test_wrong_inputs_say_so(real_corpus):
    store = VectorStore(block_rows=8)
    with pytest.raises(ValueError, match="2 vectors for 1 texts"):
        store.add(["a"], lambda texts: real_corpus.vectors[:2])
    store.add(["a"], lambda texts: real_corpus.vectors[:1])
    with pytest.raises(IndexError):
        store.take(np.array([1]))
    with pytest.raises(ValueError, match="dimension"):
        store.add(["b"], lambda texts: np.zeros((1, 3), np.float32))
