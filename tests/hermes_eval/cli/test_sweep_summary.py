"""A sweep's closing line counts its arms by outcome and its failed arms by cause."""
from __future__ import annotations

from hermes_eval.cli.sweep_summary import ArmResult, closing_line, exit_code

FULL = ArmResult("failed", "no_space", "no space left on device")


def test_failed_arms_are_counted_by_cause_and_fail_the_sweep():
    arms = [ArmResult("ok"), ArmResult("skipped"), FULL, FULL, ArmResult("failed", "error", "error in the run")]
    assert closing_line(arms) == ("sweep: 5 arms: 1 ok, 1 skipped, 3 failed (no space left on device: 2, "
                                  "error in the run: 1)")
    assert exit_code(arms) == 1


def test_busy_arms_are_named_and_do_not_fail_the_sweep():
    arms = [ArmResult("ok"), ArmResult("busy")]
    assert closing_line(arms) == "sweep: 2 arms: 1 ok, 0 skipped, 1 busy (another process is computing them)"
    assert exit_code(arms) == 0
    assert exit_code([ArmResult("crashed")]) == 1 and "1 crashed" in closing_line([ArmResult("crashed")])
