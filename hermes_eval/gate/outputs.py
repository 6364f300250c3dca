"""Gate outputs: markdown summary, JUnit XML, github-action-benchmark JSON, SQLite history."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.gate.rules import Verdict
from hermes_eval.report.markdown import md_cell


def markdown(gate: str, verdicts: list[Verdict], code: int, snapshot: dict, baseline: dict | None,
             note: str = "") -> str:
    status = {0: "PASS", 1: "REGRESSION", 2: "COULD NOT EVALUATE"}[code]
    lines = [f"# Gate `{gate}`: {status}", ""]
    if note:
        lines += [note, ""]
    failed = [v for v in verdicts if not v.passed]
    if failed:
        lines += ["## Failed rules", ""] + [f"- **{md_cell(v.rule)}**: {md_cell(v.detail)}" for v in failed] + [""]
    if verdicts:
        lines += ["## All rules", "", "| rule | baseline | current | tolerance | result |", "|---|---|---|---|---|"]
        for v in verdicts:
            fmt = lambda x: "–" if x is None else f"{x:.4f}"  # noqa: E731
            lines.append(f"| {md_cell(v.rule)} | {fmt(v.baseline)} | {fmt(v.current)} | {md_cell(v.tolerance)} | "
                         f"{'pass' if v.passed else '**FAIL**'} |")
        lines.append("")
    if baseline is not None:
        upd = baseline.get("updated") or {}
        lines += [f"Baseline from {upd.get('when', '?')} by {md_cell(upd.get('who', '?'))} at commit "
                  f"`{(upd.get('commit') or '?')[:12]}`: {md_cell(upd.get('why', ''))}", ""]
    lines += [f"Run at {snapshot.get('when', '?')}, commit `{(snapshot.get('commit') or '?')[:12]}`, "
              f"overrides: `{' '.join(snapshot.get('overrides') or []) or 'none'}`.", ""]
    return "\n".join(lines)


def junit(gate: str, verdicts: list[Verdict], error: str | None = None) -> str:
    cases = []
    for v in verdicts:
        body = "" if v.passed else f"<failure message={quoteattr(v.detail)}>{escape(v.detail)}</failure>"
        cases.append(f'  <testcase classname={quoteattr("gate." + gate)} name={quoteattr(v.rule)}>{body}</testcase>')
    if error:
        cases.append(f'  <testcase classname={quoteattr("gate." + gate)} name="evaluate">'
                     f"<error message={quoteattr(error)}>{escape(error)}</error></testcase>")
    failures = sum(not v.passed for v in verdicts)
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name={quoteattr("gate." + gate)} '
            f'tests="{len(cases)}" failures="{failures}" errors="{1 if error else 0}">\n'
            + "\n".join(cases) + "\n</testsuite>\n")


def benchmark_json(verdicts: list[Verdict]) -> tuple[list[dict], list[dict]]:
    """(customBiggerIsBetter, customSmallerIsBetter) entries for github-action-benchmark."""
    bigger, smaller = [], []
    for v in verdicts:
        if v.current is None:
            continue
        entry = {"name": v.rule, "unit": v.unit or "score", "value": v.current, "extra": v.detail}
        (bigger if v.higher_is_better else smaller).append(entry)
    return bigger, smaller


def append_history(db: Path, gate: str, snapshot: dict, verdicts: list[Verdict], code: int) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(str(db), timeout=60) as con:
        con.execute("CREATE TABLE IF NOT EXISTS gate_runs (id INTEGER PRIMARY KEY, gate TEXT, at TEXT, "
                    "git_commit TEXT, exit_code INTEGER, overrides TEXT)")
        con.execute("CREATE TABLE IF NOT EXISTS gate_rules (run_id INTEGER, rule TEXT, passed INTEGER, "
                    "baseline REAL, current REAL, detail TEXT)")
        cur = con.execute("INSERT INTO gate_runs (gate, at, git_commit, exit_code, overrides) VALUES (?,?,?,?,?)",
                          (gate, snapshot.get("when"), snapshot.get("commit"), code,
                           json.dumps(snapshot.get("overrides") or [])))
        con.executemany("INSERT INTO gate_rules VALUES (?,?,?,?,?,?)",
                        [(cur.lastrowid, v.rule, int(v.passed), v.baseline, v.current, v.detail) for v in verdicts])


def write_all(out: Path, gate: str, verdicts: list[Verdict], code: int, snapshot: dict,
              baseline: dict | None, history: Path, error: str | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    summary = markdown(gate, verdicts, code, snapshot, baseline, note=error or "")
    bigger, smaller = benchmark_json(verdicts)
    files = {f"{gate}-summary.md": summary, f"{gate}-junit.xml": junit(gate, verdicts, error),
             f"{gate}-bigger-is-better.json": json.dumps(bigger, indent=1),
             f"{gate}-smaller-is-better.json": json.dumps(smaller, indent=1),
             f"{gate}-snapshot.json": json.dumps(snapshot, indent=1, sort_keys=True)}
    written = []
    for name, text in files.items():
        atomic_write_bytes(out / name, text.encode())
        written.append(out / name)
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        with open(step, "a", encoding="utf-8") as fh:
            fh.write(summary + "\n")
    append_history(history, gate, snapshot, verdicts, code)
    return written
