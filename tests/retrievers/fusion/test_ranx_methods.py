"""The ranx fusion wrapper agrees with ranx.fuse called directly on multi-query runs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from retrievers.fusion.fixed_width_ids import WIDTH
from retrievers.fusion.ranx_methods import METHODS, NORMS, RanxFusion

ranx = pytest.importorskip("ranx")
PARAMS = {"rbc": {"phi": 0.8}, "gmnz": {"gamma": 1.5}, "logn_isr": {"sigma": 0.02}, "rrf": {"k": 20}}
# condorcet and w_condorcet: against ranx's vote on candidates in id order (test_condorcet_order.py), since
# ranx.fuse orders them by the ids' hashes
UNTRAINED = [m for m, spec in METHODS.items() if not spec.trained and not spec.hash_ordered]
TRAINED = [m for m, spec in METHODS.items() if spec.trained]


def doc_id(j: int) -> str:
    """A document id as wide as the wrapper's tokens (fixed_width_ids.WIDTH): ranx.fuse called directly on
    these ids runs the numba kernels the wrapper's calls compiled, where ids of another width would compile
    each kernel again for theirs (35 more kernels: 15 s of a fresh environment's tests on this machine)."""
    return f"doc-{j:0{WIDTH - 4}d}"


def synthetic(n_queries: int = 12, seed: int = 0):
    """Per query: a sparse and a dense list over overlapping docs, distinct scores."""
    rng = np.random.default_rng(seed)
    out = {}
    for q in range(n_queries):
        docs = [doc_id(j) for j in range(25)]
        s = rng.choice(docs, size=15, replace=False)
        d = rng.choice(docs, size=12, replace=False)
        out[f"q{q}"] = {"sparse": list(zip(s, np.round(rng.uniform(1, 20, 15), 6))),
                        "dense": list(zip(d, np.round(rng.uniform(0, 1, 12), 6)))}
    return out


DATA = synthetic()


def direct(method, norm, params, data=DATA):
    runs = [ranx.Run({q: {d: float(s) for d, s in legs[leg]} for q, legs in data.items()}, name=leg)
            for leg in ("sparse", "dense")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ranx.fuse(runs, norm=norm, method=method, params=params)


def assert_parity(fusion, method, norm, params, data=DATA):
    expected = direct(method, norm, params, data)
    for q, legs in data.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = fusion.fuse(legs, 1000)
        want = expected[q]
        assert dict(got) == pytest.approx(want, rel=1e-9, abs=1e-12), (method, norm, q)
        assert [d for d, _ in got] == sorted(want, key=lambda d: (-want[d], d))


@pytest.mark.parametrize("method", UNTRAINED)
def test_every_untrained_method_matches_ranx(method):
    params = dict(PARAMS.get(method, {}))
    wrapper_params = dict(params)
    if METHODS[method].weighted:
        params["weights"] = [0.3, 0.7]
    fusion = RanxFusion(method=method, norm="min-max", params=wrapper_params,
                        weights={"sparse": 0.3, "dense": 0.7})
    assert_parity(fusion, method, "min-max", params)


@pytest.mark.parametrize("norm", [n for n in NORMS if n != "min-max"])
@pytest.mark.parametrize("method", ["wsum", "mnz"])
def test_every_norm_matches_ranx(method, norm):
    params = {"weights": [1.0, 1.0]} if method == "wsum" else {}
    assert_parity(RanxFusion(method=method, norm=norm), method, norm, params)


@pytest.mark.parametrize("method", TRAINED)
def test_trained_methods_match_ranx_with_trained_params(method):
    qrels = ranx.Qrels({q: {doc_id(j): 1 for j in range(0, 25, 3)} for q in DATA})
    runs = [ranx.Run({q: {d: float(s) for d, s in legs[leg]} for q, legs in DATA.items()}, name=leg)
            for leg in ("sparse", "dense")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kwargs = {} if method in ("bayesfuse", "mapfuse", "posfuse", "segfuse") else {"show_progress": False}
        params = ranx.optimize_fusion(qrels, runs, norm="min-max", method=method, **kwargs)
    assert_parity(RanxFusion(method=method, norm="min-max", params=params), method, "min-max", params)


def test_dense_weight_shorthand_feeds_weighted_methods():
    a = RanxFusion(method="wsum", dense_weight=0.8)
    b = RanxFusion(method="wsum", weights={"sparse": 0.2, "dense": 0.8})
    legs = DATA["q0"]
    fa, fb, plain = a.fuse(legs, 50), b.fuse(legs, 50), RanxFusion(method="wsum").fuse(legs, 50)
    assert [d for d, _ in fa] == [d for d, _ in fb] and dict(fa) == pytest.approx(dict(fb))
    assert dict(fa) != pytest.approx(dict(plain))
    assert a.weight("dense") == 0.8 and a.weight("sparse") == pytest.approx(0.2)
    assert RanxFusion().weight("sparse") == 1.0 == RanxFusion().weight("dense@q1")


def test_empty_and_single_lists():
    f = RanxFusion(method="mnz")
    assert f.fuse({"sparse": [], "dense": []}, 5) == []
    one = [("b", 0.2), ("a", 0.2), ("c", 0.9)]
    assert f.fuse({"sparse": one, "dense": []}, 2) == [("c", 0.9), ("a", 0.2)]


def test_missing_and_unknown_params_are_clear():
    with pytest.raises(ValueError, match="phi"):
        RanxFusion(method="rbc")
    with pytest.raises(ValueError, match="unknown ranx fusion"):
        RanxFusion(method="nope")
    with pytest.raises(ValueError, match="unknown ranx norm"):
        RanxFusion(norm="softmax")
    untrained = RanxFusion(method="posfuse")  # a config may name it before tuning fits it
    with pytest.raises(ValueError, match="fusion_tuning"):
        untrained.fuse(DATA["q0"], 5)
