"""`hermes-eval gate`: exit 0 pass, 1 regression, 2 could not evaluate."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

from hermes_eval.core.errors import error_line, format_error
from hermes_eval.gate.baseline import BaselineError, read_baseline, write_baseline
from hermes_eval.gate.suite import measure
from hermes_eval.gate.outputs import write_all
from hermes_eval.gate.rules import evaluate
from hermes_eval.gate.spec import load_spec

PASS, REGRESSION, CANNOT = 0, 1, 2


def run_gate(name: str, overrides: list[str], compose: Callable, conf_dir: Path, reports: Path,
             update_baseline: bool = False, reason: str = "", runs_root: Path = Path("runs")) -> int:
    spec = load_spec(conf_dir / "gate" / f"{name}.yaml")
    baseline_dir, out_dir = reports / "baseline", reports / "gate"
    baseline = None
    if not update_baseline:
        try:
            baseline = read_baseline(baseline_dir, spec.name)
        except BaselineError as exc:
            snap = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "overrides": overrides}
            write_all(out_dir, spec.name, [], CANNOT, snap, None, reports / "history.sqlite", error=str(exc))
            print(format_error(exc), file=sys.stderr)
            return CANNOT
    runs_dir = runs_root / f"gate-{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    snapshot = measure(spec, overrides, compose, runs_dir)
    failed = {a: v.get("error") for a, v in snapshot["arms"].items() if v["status"] != "ok"}
    if update_baseline:
        path = write_baseline(baseline_dir, spec.name, snapshot, reason)
        print(f"baseline written: {path}")
        return PASS
    if failed:
        msg = "arms failed: " + "; ".join(f"{a}: {e}" for a, e in failed.items())
        write_all(out_dir, spec.name, [], CANNOT, snapshot, baseline, reports / "history.sqlite", error=msg)
        print(error_line(msg), file=sys.stderr)
        return CANNOT
    verdicts = evaluate(spec, baseline, snapshot)
    code = PASS if all(v.passed for v in verdicts) else REGRESSION
    files = write_all(out_dir, spec.name, verdicts, code, snapshot, baseline, reports / "history.sqlite")
    print(files[0].read_text())
    return code
