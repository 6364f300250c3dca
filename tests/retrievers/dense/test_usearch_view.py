"""usearch: load memory-maps the saved file with view() and answers as the built index did."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from retrievers.dense.usearch_index import USearchIndex


def mapped_files() -> set[str]:
    return {line.split()[-1] for line in Path("/proc/self/maps").read_text().splitlines()
            if len(line.split()) >= 6}


@pytest.mark.parametrize("dtype", ["f32", "f16", "i8"])
def test_view_after_save(dtype, small_corpus, tmp_path):
    ix = USearchIndex(dtype=dtype)
    ix.build(small_corpus.ids, small_corpus.vectors)
    before = ix.search(small_corpus.vectors[:10], 10)
    ix.save(tmp_path / "u")
    loaded = USearchIndex(dtype=dtype)
    loaded.load(tmp_path / "u")
    assert loaded.viewed
    if Path("/proc/self/maps").exists():
        assert str((tmp_path / "u" / "index.usearch").resolve()) in mapped_files()
    assert loaded.search(small_corpus.vectors[:10], 10) == before
    assert [h[0][0] for h in before] == small_corpus.ids[:10]  # each vector finds itself first


def test_dtype_changes_the_stored_size(small_corpus, tmp_path):
    sizes = {}
    for dtype in ("f32", "f16", "i8"):
        ix = USearchIndex(dtype=dtype)
        ix.build(small_corpus.ids, small_corpus.vectors)
        ix.save(tmp_path / dtype)
        sizes[dtype] = (tmp_path / dtype / "index.usearch").stat().st_size
    assert sizes["f32"] > sizes["f16"] > sizes["i8"]


def test_zero_query_vector_scores_zero_not_nan(small_corpus):
    ix = USearchIndex(dtype="f32")
    ix.build(small_corpus.ids, small_corpus.vectors)
    hits = ix.search(np.zeros((1, 384), np.float32), 5)[0]
    assert [s for _, s in hits] == [0.0] * 5 and [c for c, _ in hits] == sorted(small_corpus.ids)[:5]
