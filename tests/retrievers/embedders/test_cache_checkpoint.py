"""An embedding run killed half-way keeps every slice it wrote: the next run encodes only the rest."""
from __future__ import annotations

import numpy as np
import pytest

from retrievers.embedders.cache import EmbeddingCache, embed_through_cache


def _vectors(texts: list[str]) -> np.ndarray:
    return np.asarray([[len(t), t.count("a"), 1.0] for t in texts], dtype=np.float32)


def test_a_killed_encode_keeps_its_finished_slices(tmp_path):
    cache = EmbeddingCache(tmp_path / "embeddings.sqlite")
    texts = [f"text {'a' * i}" for i in range(10)]
    calls: list[int] = []

    def dies_on_third_slice(batch: list[str]) -> np.ndarray:
        calls.append(len(batch))
        if len(calls) == 3:
            raise KeyboardInterrupt  # the arm is killed while encoding its third slice
        return _vectors(batch)

    stats = {"computed": 0, "cached": 0}
    with pytest.raises(KeyboardInterrupt):
        embed_through_cache(cache, "model", texts, dies_on_third_slice, stats, checkpoint=3)
    assert calls == [3, 3, 3]
    encoded: list[int] = []

    def counts(batch: list[str]) -> np.ndarray:
        encoded.append(len(batch))
        return _vectors(batch)

    stats = {"computed": 0, "cached": 0}
    vecs = embed_through_cache(cache, "model", texts, counts, stats, checkpoint=3)
    assert sum(encoded) == 4 and (stats["computed"], stats["cached"]) == (4, 6)  # 6 kept from the killed run
    assert np.array_equal(vecs, _vectors(texts))
