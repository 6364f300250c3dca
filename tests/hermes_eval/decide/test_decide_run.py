"""`decide` end to end on fake run directories: arms composed, executed, judged and recorded."""
from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from fakeruns import BASELINE, DENSE_AST, HYBRID, queries, write_arm

from hermes_eval.decide.run import run_decision
from hermes_eval.core.errors import UserError
from hermes_eval.stages.chain import RunOutcome

SPEC = """
question: Should we fuse in the dense leg?
written: "2026-01-01"
arms:
  A: {label: bm25, overrides: [fusion.dense_weight=0.0]}
  B: {label: hybrid, overrides: [fusion.dense_weight=0.5]}
primary_metric: PRIMARY
rule: {min_effect: 0.01, alpha: 0.05, max_latency_ratio: LIMIT}
"""


def slower_copy(run_dir: Path, factor: float) -> Path:
    """The same run measured again on a slower machine: every latency times ``factor``."""
    import json
    import shutil

    import pandas as pd

    out = run_dir.with_name(run_dir.name + "-again")
    shutil.copytree(run_dir, out, dirs_exist_ok=True)
    df = pd.read_parquet(out / "per_query.parquet")
    for col in [c for c in df.columns if c.startswith("ms_")]:
        df[col] = df[col] * factor
    df.to_parquet(out / "per_query.parquet", index=False)
    rec = json.loads((out / "record.json").read_text())
    rec["latency_ms"] = {s: {k: (v * factor if k != "n" else v) for k, v in d.items()}
                         for s, d in rec["latency_ms"].items()}
    (out / "record.json").write_text(json.dumps(rec))
    return out


def setup(tmp_path: Path, monkeypatch, primary: str, limit: float, b_arm=HYBRID, a_again: float = 1.0):
    conf = tmp_path / "conf" / "decision"
    conf.mkdir(parents=True)
    (conf / "dense.yaml").write_text(SPEC.replace("PRIMARY", primary).replace("LIMIT", str(limit)))
    qs = queries(plant=False)
    dirs = {"0.0": write_arm(tmp_path / "runs", BASELINE, qs, seed=0),
            "0.5": write_arm(tmp_path / "runs", b_arm, qs, seed=1)}
    chunker = {"0.0": BASELINE.chunker, "0.5": b_arm.chunker}

    def compose(overrides):
        w = next(o.split("=")[1] for o in overrides if o.startswith("fusion.dense_weight="))
        return OmegaConf.create({"w": w, "chunker": {"name": chunker[w]}})

    calls: list[str] = []

    def execute(cfg):
        import json

        calls.append(cfg.w)
        d = dirs[cfg.w]
        if cfg.w == "0.0" and calls.count("0.0") == 3:  # A measured again after B
            d = slower_copy(d, a_again)
        return RunOutcome("ok", d, json.loads((d / "record.json").read_text()), skipped=not cfg.get("rerun"))

    monkeypatch.setattr("hermes_eval.api.execute_config", execute)
    return compose


def test_unsteady_machine_makes_latency_inconclusive(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 50.0, a_again=1.5)
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")
    md = (tmp_path / "reports" / "decisions" / "dense.md").read_text()
    assert "**Verdict: INCONCLUSIVE**" in md and "machine not steady" in md and "+50.0%" in md
    assert "in this order: A (" in md and "→ B (" in md


def test_decide_writes_a_record_with_verdict_and_evidence(tmp_path, monkeypatch, capsys):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 50.0)
    assert run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports") == 0
    md = (tmp_path / "reports" / "decisions" / "dense.md").read_text()
    assert "**Verdict: ADOPT** B (hybrid)" in md
    for section in ("## Rule (written before the run, 2026-01-01)", "## Arms", "## Results", "## Effect sizes",
                    "## Per-repository stratification", "## Reproduce", "## Manifest", "![dense](charts/dense.png)"):
        assert section in md, section
    assert "| B | alpha |" in md and "| B | beta |" in md
    assert "hermes-eval run fusion.dense_weight=0.5" in md
    assert (tmp_path / "reports" / "decisions" / "charts" / "dense.png").stat().st_size > 5000
    assert "ADOPT B" in capsys.readouterr().out
    ties = md.split("## Tied groups")[1].split("## ")[0]
    assert "Holm over all 1 pairs" in ties and "| B |" in ties and "A tie" not in ties  # B is separable from A


def test_a_tie_is_called_a_tie(tmp_path, monkeypatch):
    from dataclasses import replace

    same = replace(BASELINE, system="bm25-again", config_hash="eeee000000000005")  # A's hits exactly
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 50.0, b_arm=same)
    write_arm(tmp_path / "runs", same, queries(plant=False), seed=0)  # B's run again, with A's seed
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")
    md = (tmp_path / "reports" / "decisions" / "dense.md").read_text()
    ties = md.split("## Tied groups")[1].split("## ")[0]
    assert "**A tie:** no two arms are separable on ndcg@10" in ties
    assert "| a | B |" in ties and "| a | A |" in ties and "B is not separable from A" in ties


def test_latency_limit_turns_the_verdict_to_reject(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 1.2)
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")
    md = (tmp_path / "reports" / "decisions" / "dense.md").read_text()
    assert "**Verdict: REJECT**" in md and "NOT met" in md


def test_chunk_level_metric_across_chunkers_is_refused_before_running(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 1.2, b_arm=DENSE_AST)
    with pytest.raises(UserError, match="primary_metric.*chunk-level.*file_recall@10"):
        run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")


def test_file_level_metric_across_chunkers_works(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "file_recall@10", 50.0, b_arm=DENSE_AST)
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")
    assert "**Verdict:" in (tmp_path / "reports" / "decisions" / "dense.md").read_text()


def test_unknown_metric_names_the_field(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "nope@10", 50.0)
    with pytest.raises(UserError, match="'primary_metric'.*'nope@10' is not a recorded metric"):
        run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")


def test_bad_override_names_the_arm(tmp_path, monkeypatch):
    setup(tmp_path, monkeypatch, "ndcg@10", 50.0)

    def compose(overrides):
        raise UserError("config: Could not override 'fusion.dense_weight'")

    with pytest.raises(UserError, match=r"field 'arms.A.overrides'.*Could not override"):
        run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports")


APPLY = """apply: {file: fusion/rrf.yaml, key: dense_weight, override: fusion.dense_weight, gates: [g1, g2]}
"""


def _with_apply(tmp_path: Path, limit: float = 50.0) -> Path:
    spec = tmp_path / "conf" / "decision" / "dense.yaml"
    spec.write_text(spec.read_text() + APPLY)
    rrf = tmp_path / "conf" / "fusion" / "rrf.yaml"
    rrf.parent.mkdir(parents=True)
    shipped = (Path(__file__).resolve().parents[3] / "conf" / "fusion" / "rrf.yaml").read_text()
    rrf.write_text("\n".join("dense_weight: 0.3  # shipped" if ln.startswith("dense_weight:") else ln
                             for ln in shipped.splitlines()) + "\n")
    return rrf


def test_apply_on_adopt_writes_the_config_and_rebaselines_each_gate_citing_the_record(tmp_path, monkeypatch):
    import yaml

    compose = setup(tmp_path, monkeypatch, "ndcg@10", 50.0)
    rrf = _with_apply(tmp_path)
    before = rrf.read_text()
    calls = []
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports",
                 rebaseline=lambda gate, reason: calls.append((gate, reason)) or 0)
    assert yaml.safe_load(rrf.read_text())["dense_weight"] == 0.5  # arm B's fusion.dense_weight
    changed = [ln for ln in rrf.read_text().splitlines() if ln not in before.splitlines()]
    assert changed == ["dense_weight: 0.5  # shipped"] and rrf.read_text().startswith("# Weighted")  # comments kept
    assert [g for g, _ in calls] == ["g1", "g2"]
    assert all("decision dense ADOPT" in r and "decisions/dense.md" in r for _, r in calls)
    md = (tmp_path / "reports" / "decisions" / "dense.md").read_text()
    assert "## Applied" in md and "gate `g2` re-baselined" in md


def test_apply_on_reject_changes_nothing(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 1.2)
    rrf = _with_apply(tmp_path)
    before = rrf.read_text()
    run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports",
                 rebaseline=lambda gate, reason: pytest.fail("no re-baseline on REJECT"))
    assert rrf.read_text() == before
    assert "## Applied" not in (tmp_path / "reports" / "decisions" / "dense.md").read_text()


def test_apply_naming_a_missing_key_fails_with_the_field(tmp_path, monkeypatch):
    compose = setup(tmp_path, monkeypatch, "ndcg@10", 50.0)
    _with_apply(tmp_path)
    spec = tmp_path / "conf" / "decision" / "dense.yaml"
    spec.write_text(spec.read_text().replace("key: dense_weight", "key: dense_wieght"))
    with pytest.raises(UserError, match=r"rrf.yaml: no top-level key 'dense_wieght' \(field 'apply.key'\)"):
        run_decision("dense", compose, tmp_path / "conf", tmp_path / "runs", tmp_path / "reports",
                     rebaseline=lambda gate, reason: 0)
