"""What every fusion method owes the pipeline, for every conf/fusion preset and every untrained
ranx method: at most top_k hits, scores non-increasing with ties by id, only documents of the
lists, zero-weight lists ignored, nothing from nothing, the same answer twice."""
from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from hermes_eval.config.compose import CONF_DIR
from hermes_eval.config.parts import instantiate_part
from retrievers.fusion.base import Fusion
from retrievers.fusion.ranx_methods import METHODS, RanxFusion
from retrievers.fusion.rrf import WeightedRRF
from retrievers.kinds import missing_members

PRESETS = {p.stem: yaml.safe_load(p.read_text()) for p in (CONF_DIR / "fusion").glob("*.yaml")}
TRAINED = {p for p, node in PRESETS.items() if node.get("method") in METHODS and METHODS[node["method"]].trained}
PARAMS = {"rbc": {"phi": 0.8}, "gmnz": {"gamma": 1.5}}
CASES = {**{f"preset:{p}": p for p in PRESETS if p not in TRAINED},
         **{f"ranx:{m}": m for m, spec in METHODS.items() if not spec.trained}}
LISTS = {"sparse": [("a.py:1-9", 9.0), ("b.py:1-9", 7.5), ("c.py:1-9", 7.5), ("d.py:1-9", 1.0)],
         "dense": [("c.py:1-9", 0.91), ("e.py:1-9", 0.90), ("a.py:1-9", 0.42)]}


def build(case: str) -> Fusion:
    kind, name = case.split(":", 1)
    if kind == "preset":
        from omegaconf import OmegaConf

        node = OmegaConf.create({"fusion": OmegaConf.load(CONF_DIR / "fusion" / f"{name}.yaml")})
        return instantiate_part(node.fusion)
    return RanxFusion(method=name, params=PARAMS.get(name, {}),
                      weights={"sparse": 0.6, "dense": 0.4} if METHODS[name].weighted else {})


def test_every_fusion_class_is_in_the_suite():
    classes = {type(build(c)) for c in CASES}
    assert classes == {WeightedRRF, RanxFusion}
    assert TRAINED == {"ranx_posfuse"}, "a trained preset is fitted first (stages/tuning); its test is there"


@pytest.mark.parametrize("case", sorted(CASES))
def test_fusion_contract(case):
    fusion = build(case)
    assert isinstance(fusion, Fusion) and missing_members(fusion, Fusion) == []
    docs = {d for hits in LISTS.values() for d, _ in hits}
    out = fusion.fuse(LISTS, 10)
    assert out and len(out) <= 10 and len({d for d, _ in out}) == len(out) and {d for d, _ in out} <= docs
    assert all((a[1], b[0]) >= (b[1], a[0]) and a[1] >= b[1] for a, b in zip(out, out[1:])), out
    assert fusion.fuse(LISTS, 2) == out[:2]
    assert fusion.fuse(LISTS, 10) == out
    assert fusion.fuse({"sparse": [], "dense": []}, 5) == []
    one = fusion.fuse({"sparse": LISTS["sparse"]}, 10)
    assert {d for d, _ in one} == {d for d, _ in LISTS["sparse"]}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_zero_weight_list_is_ignored(case):
    fusion = replace(build(case), dense_weight=None, weights={"dense": 0.0})
    assert fusion.weight("dense") == 0.0 and fusion.weight("sparse") == 1.0
    assert fusion.fuse(LISTS, 10) == fusion.fuse({"sparse": LISTS["sparse"]}, 10)
