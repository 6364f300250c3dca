"""`hermes-eval gate`: quality against the committed baseline, latency against the baseline's code.

Exit codes (EXIT_CODES, printed by ``hermes-eval gate --help``): 0 pass, 1 regression, 2 could not
evaluate, 3 inconclusive (no regression, but a latency rule could neither show nor rule out a slowdown).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

from hermes_eval.core.errors import error_line, format_error
from hermes_eval.gate.baseline import BaselineError, read_baseline, write_baseline
from hermes_eval.gate.interleave import ProbeError
from hermes_eval.gate.outputs import write_all
from hermes_eval.gate.against_ref import latency_verdicts, unavailable
from hermes_eval.gate.rules import Verdict, evaluate_quality
from hermes_eval.gate.spec import load_spec
from hermes_eval.gate.suite import bare_snapshot, measure
from hermes_eval.gate.trees import TreeError
from hermes_eval.report.gate_db import gate_db_to_write

from hermes_eval.gate.exit_codes import CANNOT, EXIT_CODES, INCONCLUSIVE, PASS, REGRESSION  # noqa: F401

RULES = ("all", "quality", "latency")


def exit_code(verdicts: list[Verdict]) -> int:
    statuses = {v.status for v in verdicts}
    for status, code in (("fail", REGRESSION), ("error", CANNOT), ("inconclusive", INCONCLUSIVE)):
        if status in statuses:
            return code
    return PASS


def run_gate(name: str, overrides: list[str], compose: Callable, conf_dir: Path, reports: Path,
             update_baseline: bool = False, reason: str = "", runs_root: Path = Path("runs"),
             against: str | None = None, rules: str = "all") -> int:
    spec = load_spec(conf_dir / "gate" / f"{name}.yaml")
    baseline_dir, out_dir, history = reports / "baseline", reports / "gate", gate_db_to_write(reports)
    baseline = None
    if not update_baseline:
        try:
            baseline = read_baseline(baseline_dir, spec.name)
        except BaselineError as exc:
            write_all(out_dir, spec.name, [], CANNOT, bare_snapshot(spec, overrides), None, history, error=str(exc))
            print(format_error(exc), file=sys.stderr)
            return CANNOT
    runs_dir = runs_root / f"gate-{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    verdicts: list[Verdict] = []
    if update_baseline or rules != "latency":
        snapshot = measure(spec, overrides, compose, runs_dir)
        failed = {a: v.get("error") for a, v in snapshot["arms"].items() if v["status"] != "ok"}
        if update_baseline:
            path = write_baseline(baseline_dir, spec.name, snapshot, reason)
            print(f"baseline written: {path}")
            if snapshot.get("dirty"):
                print(f"note: the tree has uncommitted changes; the latency rules will measure against commit "
                      f"{(snapshot.get('commit') or '?')[:12]}, which lacks them (commit, then re-baseline, for an "
                      f"exact reference; or pass --against)", file=sys.stderr)
            return PASS
        if failed:
            msg = "arms failed: " + "; ".join(f"{a}: {e}" for a, e in failed.items())
            write_all(out_dir, spec.name, [], CANNOT, snapshot, baseline, history, error=msg)
            print(error_line(msg), file=sys.stderr)
            return CANNOT
        verdicts += evaluate_quality(spec, baseline, snapshot)
    else:
        snapshot = bare_snapshot(spec, overrides)
    if rules != "quality" and spec.latency:
        try:
            latency, snapshot["latency"] = latency_verdicts(spec, overrides, compose, against, baseline)
        except (TreeError, ProbeError) as exc:
            latency = unavailable(spec, str(exc))
            print(error_line(f"latency rules not evaluated: {exc}"), file=sys.stderr)
        verdicts += latency
    code = exit_code(verdicts)
    files = write_all(out_dir, spec.name, verdicts, code, snapshot, baseline, history)
    print(files[0].read_text())
    return code
