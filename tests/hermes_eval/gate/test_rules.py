"""Gate rules on hand-made data: quality tolerances and sidedness; the paired latency decision
(slowdown, ruled out, inconclusive) on synthetic per-query timings with known ratios and noise."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermes_eval.gate.interleave import Timings
from hermes_eval.gate.latency import decide, latency_verdict, paired_stats
from hermes_eval.gate.rules import evaluate_quality, quality_verdicts
from hermes_eval.gate.run import exit_code
from hermes_eval.gate.spec import Arm, GateSpec, LatencyRule, PairedDesign, QualityRule

DESIGN = PairedDesign(rounds=3, bootstrap=1000)


def spec(**kw) -> GateSpec:
    return GateSpec(name="t", common=(), arms=(Arm("ref", ()), Arm("ann", (), approximate=True)),
                    quality=kw.get("quality", ()), latency=kw.get("latency", ()), source=None)


def snap(ref_metric: float, ann_metric: float) -> dict:
    return {"arms": {"ref": {"metrics": {"ndcg@10": ref_metric}}, "ann": {"metrics": {"ndcg@10": ann_metric}}}}


def test_exact_arm_must_match_and_approximate_arm_gets_its_tolerance():
    rule = QualityRule("ndcg@10", ("ref", "ann"), abs_tol=0.0, approx_abs_tol=0.01)
    s = spec(quality=(rule,))
    v = {x.rule: x for x in quality_verdicts(rule, s, snap(0.5, 0.5), snap(0.4999, 0.495))}
    assert v["quality/ref/ndcg@10"].status == "fail"
    assert v["quality/ann/ndcg@10"].passed and v["quality/ann/ndcg@10"].band == (0.49, None)
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


def test_missing_metric_fails_with_a_reason():
    v = evaluate_quality(spec(quality=(QualityRule("recall@10", ("ref",)),)), snap(0.5, 0.5), snap(0.5, 0.5))
    assert v[0].status == "fail" and "missing" in v[0].detail


def timings(slowdown: float, noise: float, aa_bias: float = 1.0, n: int = 100, seed: int = 0,
            load: bool = False, twin_noise: float = 0.0) -> Timings:
    """Per-query costs shared by all three processes (queries differ 10x), times lognormal noise;
    ``load`` multiplies whole blocks of ten queries by a random factor in all processes at once."""
    rng = np.random.default_rng(seed)
    cost = rng.uniform(1e6, 1e7, n)
    block = np.repeat(rng.uniform(1, 3, (3, n // 10)), 10, axis=1) if load else np.ones((3, n))

    def proc(factor: float) -> np.ndarray:
        return cost * factor * block * rng.lognormal(0, noise, (3, n))

    head, twin, base = proc(slowdown), proc(slowdown * aa_bias), proc(1.0)
    twin = twin * rng.lognormal(0, twin_noise, (3, n))
    return Timings(ns={r: {"a": {"total": x}} for r, x in (("head", head), ("twin", twin), ("base", base))},
                   queries=n, rounds=3)


RULE = LatencyRule(arm="a", min_ratio=1.2, alpha=0.01)


@pytest.mark.parametrize("seed", range(5))
def test_unchanged_code_passes_even_when_load_comes_and_goes(seed):
    assert latency_verdict(RULE, timings(1.0, 0.15, seed=seed, load=True), DESIGN, "c0ffee").status == "pass"


@pytest.mark.parametrize("seed", range(5))
def test_a_thirty_percent_slowdown_fails_under_the_same_noise(seed):
    v = latency_verdict(RULE, timings(1.3, 0.15, seed=seed, load=True), DESIGN, "c0ffee")
    assert v.status == "fail" and "Wilcoxon" in v.detail and "A/A spread" in v.detail
    assert 1.2 < v.current < 1.4


def test_a_slowdown_within_the_a_a_spread_is_inconclusive_not_a_failure():
    st = paired_stats(*(timings(1.3, 0.15, aa_bias=1.4).ns[r]["a"]["total"] for r in ("head", "twin", "base")),
                      DESIGN)
    assert st["ratio"] > 1.2 and st["p"] < 0.01 and st["aa"] > st["ci"][0]
    assert decide(RULE, st) == "inconclusive"


def test_a_noisy_twin_does_not_block_a_pass_the_paired_data_show():
    st = paired_stats(*(timings(1.0, 0.05, twin_noise=1.0).ns[r]["a"]["total"]
                        for r in ("head", "twin", "base")), DESIGN)
    assert st["aa"] > 1.2 and st["ci"][1] < 1.05  # A/A spread wide, the A/B comparison tight
    assert decide(RULE, st) == "pass"


def test_a_process_offset_between_identical_code_widens_what_pass_must_rule_out():
    st = paired_stats(*(timings(1.1, 0.05, aa_bias=1.12).ns[r]["a"]["total"] for r in ("head", "twin", "base")),
                      DESIGN)
    assert st["ci"][1] < 1.2 and st["ci"][1] * st["aa_offset"] >= 1.2  # 1.1x slower, processes 12% apart
    assert decide(RULE, st) == "inconclusive"


def test_too_few_or_too_noisy_queries_are_inconclusive():
    v = latency_verdict(RULE, timings(1.0, 0.8, n=20), DESIGN, "c0ffee")  # median ratio 1.5x by chance
    assert v.status == "inconclusive" and "neither shows nor rules out" in v.detail


def test_a_stage_not_timed_cannot_be_evaluated():
    v = latency_verdict(LatencyRule(arm="a", stage="rerank"), timings(1.0, 0.1), DESIGN, "c0ffee")
    assert v.status == "error" and "rerank" in v.detail


def test_exit_code_precedence():
    from hermes_eval.gate.rules import Verdict

    def v(status):
        return Verdict("r", status, None, None, "", "")

    assert exit_code([v("pass")]) == 0 and exit_code([]) == 0
    assert exit_code([v("pass"), v("inconclusive")]) == 3
    assert exit_code([v("inconclusive"), v("error")]) == 2
    assert exit_code([v("error"), v("fail"), v("inconclusive")]) == 1


@pytest.mark.parametrize("text,needle", [
    ("arms: 3\n", "must be a list"),
    ("arms: [{id: a}, {id: a}]\n", "unique"),
    ("arms: [{id: a}]\nlatency: [{arm: b}]\n", "unknown arm 'b'"),
    ("arms: [{id: a}]\nlatency: [{arm: a, reference: a}]\n", "field 'reference' is gone"),
    ("arms: [{id: a}]\nlatency: [{arm: a, min_ratio: 0.9}]\n", "min_ratio"),
    ("arms: [{id: a}]\npaired: {rounds: 0}\n", "field 'rounds'"),
    ("arms: [{id: a}]\npaired: {round: 2}\n", "unknown field 'round'"),
    ("arms: [{id: a}]\npaired: {preload: torch}\n", "field 'preload' must be a list"),
    ("arms: [{id: a}]\npaired: {preload: [torch, 3]}\n", "field 'preload' must be a list"),
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


def test_the_committed_specs_preload_the_model_libraries_once(tmp_path):
    from hermes_eval.gate.spec import PairedDesign, load_spec

    root = Path(__file__).resolve().parents[3]
    for name in ("smoke", "nightly"):
        assert load_spec(root / "conf" / "gate" / f"{name}.yaml").paired.preload == ("torch", "sentence_transformers")
    p = tmp_path / "g.yaml"
    p.write_text("arms: [{id: a}]\npaired: {rounds: 2}\n")
    assert load_spec(p).paired.preload == () == PairedDesign().preload  # unset: every probe a new interpreter
