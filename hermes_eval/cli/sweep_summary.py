"""A sweep's closing line: its arms counted by outcome, failed arms by cause; and its exit code."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class ArmResult:
    """What one job hands back to the launcher (it crosses a process boundary: plain fields)."""

    status: str  # ok, skipped, busy, shard (a part written, the run not merged yet) or failed
    cause: str | None = None  # a failed arm's cause: an environment fault's key, else "error"
    what: str | None = None  # the cause in words (no space left on device, ...)
    rerun: bool = False  # ran again: a finished record with its config hash had other part identities


def arm_result(outcome) -> ArmResult:
    """The :class:`ArmResult` of a :class:`~hermes_eval.stages.chain.RunOutcome`."""
    if outcome.status in ("busy", "shard"):
        return ArmResult(outcome.status)
    if outcome.skipped:
        return ArmResult("skipped")
    if outcome.status == "ok":
        return ArmResult("ok", rerun=bool(getattr(outcome, "rerun", None)))
    fault = outcome.record.get("fault") or {}
    return ArmResult("failed", fault.get("cause") or "error", fault.get("what") or "error in the run")


def closing_line(results: Sequence[ArmResult]) -> str:
    """``sweep: 10 arms: 7 ok, 0 skipped, 3 failed (no space left on device: 3)``; arms another
    process holds are counted as ``busy``, arms that crashed without a result as ``crashed``."""
    counts = Counter(r.status for r in results)
    reruns = sum(r.rerun for r in results if r.status == "ok")
    ok = f"{counts['ok']} ok" + (f" ({reruns} rerun: a part changed)" if reruns else "")
    parts = [ok, f"{counts['skipped']} skipped"]
    if counts["busy"]:
        parts.append(f"{counts['busy']} busy (another process is computing them)")
    if counts["shard"]:
        parts.append(f"{counts['shard']} shards (parts written; the last shard of a run merges it)")
    failed = [r for r in results if r.status == "failed"]
    if failed:
        by_cause = Counter(r.what for r in failed)
        parts.append(f"{len(failed)} failed ({', '.join(f'{w}: {n}' for w, n in by_cause.most_common())})")
    if counts["crashed"]:
        parts.append(f"{counts['crashed']} crashed (see above)")
    return f"sweep: {len(results)} arms: " + ", ".join(parts)


def exit_code(results: Sequence[ArmResult]) -> int:
    """1 when an arm failed or crashed (its record says why), else 0."""
    return 1 if any(r.status in ("failed", "crashed") for r in results) else 0
