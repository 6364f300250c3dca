"""Gate rules on hand-made snapshots: tolerances, sidedness, and asv-style latency decisions."""
from __future__ import annotations

import numpy as np
import pytest

from hermes_eval.gate.rules import evaluate, latency_verdict, quality_verdicts
from hermes_eval.gate.spec import Arm, GateSpec, LatencyRule, QualityRule


def spec(**kw) -> GateSpec:
    return GateSpec(name="t", common=(), arms=(Arm("ref", ()), Arm("ann", (), approximate=True)),
                    quality=kw.get("quality", ()), latency=kw.get("latency", ()), source=None)


def snap(ref_metric: float, ann_metric: float, ref_ms=None, ann_ms=None) -> dict:
    rng = np.random.default_rng(0)
    ref_ms = ref_ms if ref_ms is not None else list(rng.normal(10, 1, 200))
    ann_ms = ann_ms if ann_ms is not None else list(rng.normal(30, 3, 200))
    return {"arms": {"ref": {"metrics": {"ndcg@10": ref_metric}, "latency_samples": {"total": ref_ms}},
                     "ann": {"metrics": {"ndcg@10": ann_metric}, "latency_samples": {"total": ann_ms}}}}


def test_exact_arm_must_match_and_approximate_arm_gets_its_tolerance():
    rule = QualityRule("ndcg@10", ("ref", "ann"), abs_tol=0.0, approx_abs_tol=0.01)
    s = spec(quality=(rule,))
    v = {x.rule: x for x in quality_verdicts(rule, s, snap(0.5, 0.5), snap(0.4999, 0.495))}
    assert not v["quality/ref/ndcg@10"].passed
    assert v["quality/ann/ndcg@10"].passed
    assert "0.5000 -> 0.4999" in v["quality/ref/ndcg@10"].detail


def test_one_sided_rules_allow_improvement_two_sided_do_not():
    up = snap(0.6, 0.5), snap(0.7, 0.5)
    one = QualityRule("ndcg@10", ("ref",), abs_tol=0.01, sided="one")
    two = QualityRule("ndcg@10", ("ref",), abs_tol=0.01, sided="two")
    assert quality_verdicts(one, spec(), up[0], up[1])[0].passed
    assert not quality_verdicts(two, spec(), up[0], up[1])[0].passed


def test_relative_tolerance_scales_with_the_baseline():
    rule = QualityRule("ndcg@10", ("ref",), rel_tol=0.1)
    assert quality_verdicts(rule, spec(), snap(0.5, 0), snap(0.46, 0))[0].passed
    assert not quality_verdicts(rule, spec(), snap(0.5, 0), snap(0.44, 0))[0].passed


def test_latency_noise_passes_and_a_real_slowdown_fails():
    rule = LatencyRule(arm="ann", reference="ref", min_ratio=1.25, alpha=0.01)
    rng = np.random.default_rng(1)
    base = snap(0, 0)
    noisy = snap(0, 0, ref_ms=list(rng.normal(10, 1.5, 200)), ann_ms=list(rng.normal(31, 4, 200)))
    assert latency_verdict(rule, base, noisy).passed
    slow = snap(0, 0, ref_ms=list(rng.normal(10, 1, 200)), ann_ms=list(rng.normal(60, 3, 200)))
    v = latency_verdict(rule, base, slow)
    assert not v.passed and "Mann-Whitney" in v.detail


def test_machine_speed_cancels_out_through_the_reference_arm():
    rule = LatencyRule(arm="ann", reference="ref", min_ratio=1.25)
    rng = np.random.default_rng(2)
    slower_machine = snap(0, 0, ref_ms=list(rng.normal(20, 2, 200)), ann_ms=list(rng.normal(60, 6, 200)))
    assert latency_verdict(rule, snap(0, 0), slower_machine).passed


def test_missing_metric_fails_with_a_reason():
    rule = QualityRule("recall@10", ("ref",))
    v = evaluate(spec(quality=(rule,)), snap(0.5, 0.5), snap(0.5, 0.5))
    assert not v[0].passed and "missing" in v[0].detail


@pytest.mark.parametrize("text,needle", [
    ("arms: 3\n", "must be a list"),
    ("arms: [{id: a}, {id: a}]\n", "unique"),
    ("arms: [{id: a}]\nlatency: [{arm: a, reference: b}]\n", "unknown arm 'b'"),
    ("arms: [{id: a}]\nquality: [{metric: x, sided: three}]\n", "sided"),
    ("arms: [\n", "invalid YAML"),
])
def test_bad_specs_fail_with_file_and_field(tmp_path, text, needle):
    from hermes_eval.core.errors import UserError
    from hermes_eval.gate.spec import load_spec

    p = tmp_path / "g.yaml"
    p.write_text(text)
    with pytest.raises(UserError, match=needle) as err:
        load_spec(p)
    assert str(p) in str(err.value)
