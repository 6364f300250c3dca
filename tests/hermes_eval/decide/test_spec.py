"""Decision specs: the shipped ones validate; every error names the file, the field and a fix."""
from __future__ import annotations

from pathlib import Path

import pytest

from hermes_eval.decide.spec import load_spec
from hermes_eval.core.errors import UserError

CONF = Path(__file__).resolve().parents[3] / "conf" / "decision"
VALID = """
question: Is B better?
arms:
  A: {label: base, overrides: [fusion.dense_weight=0.5]}
  B: [fusion.dense_weight=0.7]
primary_metric: ndcg@10
rule: {min_effect: 0.01, alpha: 0.05, max_latency_ratio: 1.2}
"""


@pytest.mark.parametrize("name", ["fusion_weight", "chunker"])
def test_shipped_decisions_validate(name):
    spec = load_spec(name, CONF)
    assert spec.baseline.name == "A" and len(spec.challengers) == 1
    assert spec.rule.latency_percentile == "p95" and spec.rule.max_latency_ratio == 1.2


@pytest.mark.parametrize("name, margin, limit", [("embedder_int8", -0.01, 0.6), ("embedder_static", -0.03, 0.1)])
def test_shipped_embedder_decisions_are_non_inferiority(name, margin, limit):
    spec = load_spec(name, CONF)
    assert spec.rule.kind == "non_inferiority" and spec.rule.min_effect == margin
    assert spec.rule.max_latency_ratio == limit and spec.rule.latency_stage == "embed"


def test_valid_spec_defaults(tmp_path):
    (tmp_path / "x.yaml").write_text(VALID)
    spec = load_spec("x", tmp_path)
    assert spec.arms[1].overrides == ("fusion.dense_weight=0.7",) and spec.arms[1].label == "fusion.dense_weight=0.7"
    assert spec.stat_test == "student" and spec.rule.latency_stage == "total"


@pytest.mark.parametrize("edit, field", [
    (lambda t: t.replace("question: Is B better?", "question: ''"), "'question'"),
    (lambda t: t.replace("  A: {label: base, overrides: [fusion.dense_weight=0.5]}\n", ""), "'arms'"),
    (lambda t: t.replace("[fusion.dense_weight=0.7]", "[nonsense]"), "'arms.B.overrides'"),
    (lambda t: t.replace("alpha: 0.05", "alpha: 5"), "'rule.alpha'"),
    (lambda t: t.replace("primary_metric: ndcg@10", "primary_metric: ndcg@11"), "'primary_metric'"),
    (lambda t: t.replace("alpha: 0.05", "alpah: 0.05"), "'rule.alpah'"),
    (lambda t: t + "primary_metrics: x\n", "'primary_metrics'"),
    (lambda t: t + "stat_test: wilcoxon\n", "'stat_test'"),
    (lambda t: t.replace("primary_metric: ndcg@10\n", ""), "'primary_metric'"),
    (lambda t: t.replace("alpha: 0.05", "alpha: 0.05, kind: equivalence"), "'rule.kind'"),
    (lambda t: t.replace("alpha: 0.05", "alpha: 0.05, kind: non_inferiority"), "'rule.min_effect'"),
])
def test_errors_are_one_line_and_name_file_and_field(tmp_path, edit, field):
    (tmp_path / "bad.yaml").write_text(edit(VALID))
    with pytest.raises(UserError) as err:
        load_spec("bad", tmp_path)
    msg = str(err.value)
    assert "\n" not in msg and str(tmp_path / "bad.yaml") in msg and field in msg and ";" in msg


def test_missing_decision_lists_the_available_ones(tmp_path):
    (tmp_path / "one.yaml").write_text(VALID)
    with pytest.raises(UserError, match="available: one"):
        load_spec("two", tmp_path)
