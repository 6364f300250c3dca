"""The gate's history as a table: the last runs of one gate, each latency rule's verdict, ratio
and A/A offset (``python -m hermes_eval.gate.series [--gate nightly] [--last 10] [--out FILE]``).

What says whether the latency probe is steady: how many runs were inconclusive or failed on an
unchanged tree, and how far two processes of identical code sat apart in each run.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.report.gate_db import gate_db

# rows written before gate_rules had an ``extra`` column carry their numbers only in the detail line
DETAIL = re.compile(r"median per-query ratio (?P<ratio>[0-9.]+)x \[(?P<lo>[0-9.]+), (?P<hi>[0-9.]+)\].*?"
                    r"A/A spread (?P<aa>[0-9.]+)x \(offset (?P<offset>[0-9.]+)x\)")


@dataclass(frozen=True)
class LatencyCell:
    status: str
    ratio: float
    ci: tuple[float, float]
    aa_spread: float
    aa_offset: float


@dataclass(frozen=True)
class GateRun:
    id: int
    at: str
    commit: str
    exit_code: int
    latency: dict[str, LatencyCell]


def from_extra(status: str, ratio: float | None, extra: str | None) -> LatencyCell | None:
    """A latency rule's numbers as the rule stored them (``gate_rules.extra``); None if absent."""
    try:
        data = json.loads(extra or "{}")
        return LatencyCell(status, float(ratio), (float(data["ci"][0]), float(data["ci"][1])), float(data["aa"]),
                           float(data["aa_offset"]))
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def parse_detail(status: str, detail: str) -> LatencyCell | None:
    """A latency rule's numbers from its detail line (gate.latency writes it); None if it has none."""
    m = DETAIL.search(detail or "")
    if not m:
        return None
    return LatencyCell(status, float(m["ratio"]), (float(m["lo"]), float(m["hi"])), float(m["aa"]),
                       float(m["offset"]))


def load_runs(db: Path, gate: str, last: int) -> list[GateRun]:
    """The ``last`` runs of ``gate`` in ``db`` (oldest first); SystemExit with one line if unreadable."""
    if not db.is_file():
        raise SystemExit(f"{db}: no gate history here; run `hermes-eval gate` first or pass --db")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        runs = con.execute("SELECT id, at, git_commit, exit_code FROM gate_runs WHERE gate=? ORDER BY id DESC "
                           "LIMIT ?", (gate, last)).fetchall()[::-1]
        have = {row[1] for row in con.execute("PRAGMA table_info(gate_rules)")}
        extra_col = "extra" if "extra" in have else "NULL"
        out = []
        for rid, at, commit, code in runs:
            cells = {}
            for rule, status, current, detail, extra in con.execute(
                    f"SELECT rule, status, current, detail, {extra_col} FROM gate_rules WHERE run_id=? "
                    "AND rule LIKE 'latency/%' ORDER BY rule", (rid,)):
                cell = from_extra(status, current, extra) or parse_detail(status, detail)
                if cell is not None:
                    cells[rule] = cell
            out.append(GateRun(rid, at or "", commit or "", int(code), cells))
    return out


VERDICT = {0: "pass", 1: "REGRESSION", 2: "could not evaluate", 3: "inconclusive"}


def render(gate: str, runs: list[GateRun]) -> str:
    rules = sorted({r for run in runs for r in run.latency})
    head = ["run", "at", "commit", "verdict"] + [f"{r.split('/')[1]}: ratio [CI] (A/A offset)" for r in rules]
    lines = [f"# Gate `{gate}`: the last {len(runs)} runs", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in runs:
        cells = [str(run.id), run.at, run.commit[:12], VERDICT.get(run.exit_code, str(run.exit_code))]
        for rule in rules:
            c = run.latency.get(rule)
            cells.append("-" if c is None else f"{c.status} {c.ratio:.3f} [{c.ci[0]:.3f}, {c.ci[1]:.3f}] "
                                               f"({c.aa_offset:.3f})")
        lines.append("| " + " | ".join(cells) + " |")
    offsets = [c.aa_offset for run in runs for c in run.latency.values()]
    codes = [run.exit_code for run in runs]
    lines += ["", f"Runs: {len(runs)}; pass {codes.count(0)}, inconclusive {codes.count(3)}, regression "
                  f"{codes.count(1)}, could not evaluate {codes.count(2)}."]
    if offsets:
        lines.append(f"A/A offset (two processes of this tree, same run): largest {max(offsets):.3f}x, "
                     f"{sum(o < 1.03 for o in offsets)} of {len(offsets)} below 1.03x.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hermes_eval.gate.series", description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, default=None, help="default: reports/gate.sqlite (history.sqlite "
                    "when only that exists, for one release)")
    ap.add_argument("--gate", default="nightly")
    ap.add_argument("--last", type=int, default=10)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    args.db = args.db or gate_db(Path("reports"))
    text = render(args.gate, load_runs(args.db, args.gate, args.last))
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
