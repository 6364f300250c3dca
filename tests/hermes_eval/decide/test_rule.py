"""The preregistered rule: each verdict from hand-built comparisons."""
from __future__ import annotations

from pathlib import Path

import pytest

from hermes_eval.decide.analysis import ArmRun, Comparison
from hermes_eval.decide.latency import LatencyComparison
from hermes_eval.decide.rule import ADOPT, INCONCLUSIVE, REJECT, judge, overall
from hermes_eval.decide.spec import Arm, Rule
from hermes_eval.record.folder import RunFiles
from hermes_eval.judge.significance import EffectCI, PairedTest

RULE = Rule(min_effect=0.01, alpha=0.05, max_latency_ratio=1.2)


def comp(delta, lo, hi, p, ratio, drift=0.0, name="B") -> Comparison:
    run = ArmRun(Arm(name, name, ()), {}, RunFiles(Path(".")), False)
    test = PairedTest("ndcg@10", 0.5, 0.5 + delta, p, 100, "ranx.compare")
    lat = LatencyComparison(10.0, 10.0 * ratio, EffectCI(ratio, ratio * 0.9, ratio * 1.1, 100), drift)
    return Comparison(run, test, p, EffectCI(delta, lo, hi, 100), lat, ())


@pytest.mark.parametrize("c, verdict", [
    (comp(0.03, 0.02, 0.04, 0.001, 1.0), ADOPT),
    (comp(0.03, 0.02, 0.04, 0.001, 1.3), REJECT),            # too slow
    (comp(0.004, 0.002, 0.006, 0.001, 1.0), REJECT),         # real but below the required gain
    (comp(-0.03, -0.04, -0.02, 0.001, 1.0), REJECT),         # significantly worse
    (comp(0.001, -0.004, 0.006, 0.4, 1.0), REJECT),          # CI rules the gain out
    (comp(0.01, -0.01, 0.03, 0.2, 1.0), INCONCLUSIVE),       # not significant, gain still possible
    (comp(0.03, 0.02, 0.04, 0.001, 1.0, drift=0.3), INCONCLUSIVE),  # machine not steady
    (comp(0.03, 0.02, 0.04, 0.001, 1.5, drift=-0.3), INCONCLUSIVE),  # slow, but not on a steady machine
    (comp(-0.03, -0.04, -0.02, 0.001, 1.0, drift=0.5), REJECT),      # worse needs no latency
    (comp(0.03, 0.02, 0.04, 0.06, 1.0), INCONCLUSIVE),       # Holm p just above alpha
])
def test_judge(c, verdict):
    v = judge(RULE, c)
    assert v.verdict == verdict and v.arm == "B" and v.reasons


def test_overall_adopts_the_largest_adopted_effect():
    cs = [comp(0.02, 0.015, 0.03, 0.001, 1.0, name="B"), comp(0.05, 0.04, 0.06, 0.001, 1.0, name="C"),
          comp(0.0, -0.01, 0.03, 0.5, 1.0, name="D")]
    vs = [judge(RULE, c) for c in cs]
    assert overall(vs, cs).verdict == ADOPT and overall(vs, cs).arm == "C"
    assert overall(vs[2:], cs[2:]).verdict == INCONCLUSIVE


NON_INFERIOR = Rule(min_effect=-0.01, alpha=0.05, max_latency_ratio=0.6, latency_stage="embed", kind="non_inferiority")


@pytest.mark.parametrize("c, verdict", [
    (comp(-0.002, -0.008, 0.004, 0.5, 0.4), ADOPT),              # CI inside the margin, fast enough
    (comp(0.0, -0.004, 0.004, 0.9, 0.7), REJECT),                # not fast enough on a steady machine
    (comp(-0.004, -0.015, 0.007, 0.4, 0.4), INCONCLUSIVE),       # CI reaches below the margin
    (comp(-0.05, -0.07, -0.03, 0.001, 0.4), REJECT),             # worse than the margin, whole CI
    (comp(-0.002, -0.008, 0.004, 0.5, 0.4, drift=0.3), INCONCLUSIVE),  # machine not steady
    (comp(-0.002, -0.008, 0.004, 0.5, 0.9, drift=0.3), INCONCLUSIVE),  # slow, but not steady either
    (comp(-0.006, -0.009, -0.003, 0.001, 0.4), ADOPT),           # a significant loss inside the margin
])
def test_judge_non_inferiority(c, verdict):
    v = judge(NON_INFERIOR, c)
    assert v.verdict == verdict and v.arm == "B" and v.reasons
