"""`hermes-eval costs` writes reports/costs.{md,json}; `bench`, its old name, still runs it for one release and
says the new name in one line; a re-run of some costs keeps the others' numbers, read from bench.json when
costs.json is not there yet."""
from __future__ import annotations

import json

from hermes_eval.cli.main import main

KEPT = {"sweep_reuse": {"ratio": 1.1, "single_arm_s": 1, "grid_6_arms_s": 1.1, "target": "<= 1.5", "passed": True}}


def test_costs_writes_costs_files_and_keeps_what_it_did_not_run(tmp_path, capsys):
    (tmp_path / "costs.json").write_text(json.dumps({"benches": KEPT}))
    assert main(["costs", "--out", str(tmp_path), "--cache", str(tmp_path / "c"), "--only", "no_such_cost"]) == 0
    assert json.loads((tmp_path / "costs.json").read_text())["benches"] == KEPT
    assert (tmp_path / "costs.md").read_text().startswith("# hermes-eval costs")
    assert "| sweep_reuse | ratio 1.1" in (tmp_path / "costs.md").read_text()
    assert not (tmp_path / "bench.md").exists() and capsys.readouterr().err == ""


def test_bench_is_an_alias_saying_the_new_name_and_reading_the_old_file(tmp_path, capsys):
    (tmp_path / "bench.json").write_text(json.dumps({"benches": KEPT}))
    assert main(["bench", "--out", str(tmp_path), "--cache", str(tmp_path / "c"), "--only", "no_such_cost"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "hermes-eval costs" in err[0]
    assert json.loads((tmp_path / "costs.json").read_text())["benches"] == KEPT


def test_the_history_cost_section_is_now_snapshot_sets_and_its_old_name_still_selects_it(tmp_path, monkeypatch):
    for var in ("HERMES_COSTS_SNAPSHOT_SET", "HERMES_BENCH_HISTORY"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "costs.json").write_text(json.dumps({"benches": {"history_cost": {"skipped": "old"}, **KEPT}}))
    assert main(["costs", "--out", str(tmp_path), "--cache", str(tmp_path / "c"), "--only", "history_cost"]) == 0
    got = json.loads((tmp_path / "costs.json").read_text())["benches"]
    assert set(got) == {"snapshot_sets", "sweep_reuse"}
    assert "HERMES_COSTS_SNAPSHOT_SET" in got["snapshot_sets"]["skipped"]  # it ran again, under its new name
    assert "## Snapshot set cost" in (tmp_path / "costs.md").read_text()
