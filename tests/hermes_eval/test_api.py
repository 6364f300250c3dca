"""The public Python API: run, compose, load_results, and the offline defaults a library caller gets."""
from __future__ import annotations

import os

import hermes_eval
from hermes_eval.config.compose import OFFLINE_DEFAULTS
from hermes_eval.config.settings import settings_from


def test_run_from_overrides_settings_and_config_agree(make_cfg, tmp_path, monkeypatch):
    cfg = make_cfg("retriever=bm25", "chunker=lines", runs=tmp_path / "runs")
    for var in OFFLINE_DEFAULTS:  # composing set them; a caller holding settings has not
        monkeypatch.delenv(var, raising=False)
    first = hermes_eval.run(settings_from(cfg))
    assert first.status == "ok" and not first.skipped and (first.run_dir / "record.json").is_file()
    assert os.environ["HF_HUB_OFFLINE"] == "1"  # a library caller gets offline mode too
    again = hermes_eval.run(cfg)  # same hash: resumed, not re-run
    assert again.skipped and again.run_dir == first.run_dir
    assert again.record["metrics"] == first.record["metrics"]
    table = hermes_eval.load_results(tmp_path / "runs")
    assert list(table["config_hash"]) == [first.record["config_hash"]]
    assert table["ndcg@10"][0] == first.record["metrics"]["ndcg@10"]["mean"]


def test_an_invalid_sweep_arm_leaves_a_failed_record(make_cfg, tmp_path):
    out = hermes_eval.run(make_cfg("depths.k=0", runs=tmp_path / "runs"))
    assert out.status == "failed" and "depths.k" in out.record["error"]
    assert (out.run_dir / "record.json").is_file()
