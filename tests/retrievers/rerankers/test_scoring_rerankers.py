"""Dense rescoring, MMR and the position-aware blend on a hand-checkable candidate list."""
from __future__ import annotations

import numpy as np
import pytest

from retrievers.rerankers.base import Scorer, arrange, minmax
from retrievers.rerankers.blend import Blend
from retrievers.rerankers.dense_rescore import DenseRescore
from retrievers.rerankers.mmr import MMR


def ids(hits):
    return [cid for cid, _ in hits]


def non_increasing(hits):
    scores = [s for _, s in hits]
    return all(a >= b for a, b in zip(scores, scores[1:]))


def test_dense_rescore_orders_by_cosine(pipeline, fused):
    out = DenseRescore(depth=6).rerank("parse json config", fused, pipeline)
    e = pipeline.embedder
    q = e.embed_queries(["parse json config"])[0]
    cos = {cid: float(e._vec(t) @ q) for cid, t in pipeline.texts.items()}
    expected = sorted(ids(fused), key=lambda c: (-cos[c], ids(fused).index(c)))
    assert ids(out) == expected
    assert [s for _, s in out] == pytest.approx([cos[c] for c in expected])


def test_dense_rescore_reuses_the_search_query_vector_and_keeps_chunk_vectors(pipeline, fused):
    r = DenseRescore(depth=6)
    pipeline.last_query_vector = ("parse json", pipeline.embedder.embed_queries(["parse json"])[0])
    before = dict(pipeline.embedder.calls)
    r.rerank("parse json", fused, pipeline)
    r.rerank("parse json", fused, pipeline)
    assert pipeline.embedder.calls["queries"] == before["queries"]          # reused, not re-embedded
    assert pipeline.embedder.calls["documents"] - before["documents"] == 6  # fetched once, then kept
    r.rerank("another query", fused, pipeline)
    assert pipeline.embedder.calls["queries"] == before["queries"] + 1


def test_mmr_demotes_a_near_duplicate(pipeline, fused):
    # b and c are near duplicates: with relevance b > c, MMR picks b, then prefers others over c
    head = [fused[1], fused[2], fused[3]]  # b, c, d
    assert ids(MMR(depth=3, lambda_=0.5).rerank("q", head, pipeline)) == ["b.py:1-5", "d.py:1-5", "c.py:1-5"]
    assert ids(MMR(depth=3, lambda_=1.0).rerank("q", head, pipeline)) == ids(head)  # pure relevance
    out = MMR(depth=3).rerank("q", head, pipeline)
    assert [s for _, s in out] == pytest.approx([1.0, 2 / 3, 1 / 3])


def test_mmr_cosine_relevance_uses_the_query(pipeline, fused):
    out = MMR(depth=6, lambda_=1.0, relevance="cosine").rerank("network socket", fused, pipeline)
    assert ids(out)[0] == "d.py:1-5"


class FixedScorer(Scorer):
    def __init__(self, scores):
        self.scores, self.stats = scores, {}

    def score(self, query, hits, pipeline):
        return None if self.scores is None else self.scores[: len(hits)]


def test_blend_bands_hand_example(pipeline):
    hits = [(f"{c}.py:1-1", s) for c, s in zip("abcde", [1.0, 0.8, 0.6, 0.4, 0.0])]
    other = [0.0, 0.0, 0.0, 1.0, 0.5]
    blend = Blend(FixedScorer(other), depth=5, bands=[[1, 0.9], [3, 0.5], [None, 0.2]])
    out = blend.rerank("q", hits, pipeline)
    # fused scaled: 1, .8, .6, .4, 0; other scaled: 0, 0, 0, 1, .5
    want = {"a": 0.9, "b": 0.4, "c": 0.3, "d": 0.2 * 0.4 + 0.8, "e": 0.4}
    assert [s for _, s in out] == pytest.approx(sorted(want.values(), reverse=True))
    assert ids(out) == ["a.py:1-1", "d.py:1-1", "b.py:1-1", "e.py:1-1", "c.py:1-1"]  # b/e tie: fused order


def test_blend_default_bands_are_repo_search(pipeline):
    blend = Blend(FixedScorer([0] * 20))
    assert [blend.weight(r) for r in (1, 3, 4, 10, 11, 500)] == [0.75, 0.75, 0.6, 0.6, 0.4, 0.4]
    with pytest.raises(ValueError):
        Blend(FixedScorer([]), bands=[[3, 0.75], [10, 0.6]])


def test_blend_falls_back_when_the_scorer_fails(pipeline, fused):
    blend = Blend(FixedScorer(None), depth=4)
    assert blend.rerank("q", fused, pipeline) == fused
    assert blend.stats["fallbacks"] == 1


def test_arrange_and_minmax():
    hits = [("a", 0.5), ("b", 0.4), ("c", 0.3), ("d", 0.1)]
    out = arrange(hits, 2, [1, 0], [-3.0, -2.0])
    assert out == [("b", -2.0), ("a", -3.0), ("c", -4.0), ("d", pytest.approx(-4.2))]
    assert minmax([2.0, 2.0]).tolist() == [0.0, 0.0]
    assert np.allclose(minmax([1.0, 3.0, 2.0]), [0.0, 1.0, 0.5])


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_depth_must_be_positive(bad):
    with pytest.raises(ValueError):
        DenseRescore(depth=bad)
