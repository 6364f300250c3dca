"""Gate outputs: markdown summary, JUnit XML, github-action-benchmark JSON, SQLite history, trend page."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.gate.rules import Verdict
from hermes_eval.report.markdown import md_cell
from hermes_eval.report.trend import write_trend_page

STATUS = {0: "PASS", 1: "REGRESSION", 2: "COULD NOT EVALUATE", 3: "INCONCLUSIVE"}
RESULT = {"pass": "pass", "fail": "**FAIL**", "inconclusive": "_inconclusive_", "error": "**could not evaluate**"}


def markdown(gate: str, verdicts: list[Verdict], code: int, snapshot: dict, baseline: dict | None,
             note: str = "") -> str:
    lines = [f"# Gate `{gate}`: {STATUS[code]}", ""]
    if note:
        lines += [note, ""]
    for status, head in (("fail", "Failed rules"), ("error", "Rules that could not be evaluated")):
        bad = [v for v in verdicts if v.status == status]
        if bad:
            lines += [f"## {head}", ""] + [f"- **{md_cell(v.rule)}**: {md_cell(v.detail)}" for v in bad] + [""]
    unsure = [v for v in verdicts if v.status == "inconclusive"]
    if unsure:
        lines += ["> **Warning: latency inconclusive** (exit 3, not a failure): the run could neither show nor "
                  "rule out a slowdown; re-run on a quieter machine.", ">"]
        lines += [f"> - **{md_cell(v.rule)}**: {md_cell(v.detail)}" for v in unsure] + [""]
    if verdicts:
        lines += ["## All rules", "", "| rule | baseline | current | tolerance | result |", "|---|---|---|---|---|"]
        for v in verdicts:
            fmt = lambda x: "–" if x is None else f"{x:.4f}"  # noqa: E731
            lines.append(f"| {md_cell(v.rule)} | {fmt(v.baseline)} | {fmt(v.current)} | {md_cell(v.tolerance)} | "
                         f"{RESULT[v.status]} |")
        lines.append("")
        lat = [v for v in verdicts if v.rule.startswith("latency/") and v.status != "error"]
        if lat:
            lines += ["Latency (this tree / the baseline's code, same run, interleaved):", ""]
            lines += [f"- {md_cell(v.rule)}: {md_cell(v.detail)}" for v in lat] + [""]
    if baseline is not None:
        upd = baseline.get("updated") or {}
        lines += [f"Baseline from {upd.get('when', '?')} by {md_cell(upd.get('who', '?'))} at commit "
                  f"`{(upd.get('commit') or '?')[:12]}`: {md_cell(upd.get('why', ''))}", ""]
    dirty = " (with uncommitted changes)" if snapshot.get("dirty") else ""
    lines += [f"Run at {snapshot.get('when', '?')}, commit `{(snapshot.get('commit') or '?')[:12]}`{dirty}, "
              f"overrides: `{' '.join(snapshot.get('overrides') or []) or 'none'}`.", ""]
    return "\n".join(lines)


def junit(gate: str, verdicts: list[Verdict], error: str | None = None) -> str:
    cases = []
    for v in verdicts:
        body = {"pass": "", "fail": f"<failure message={quoteattr(v.detail)}>{escape(v.detail)}</failure>",
                "error": f"<error message={quoteattr(v.detail)}>{escape(v.detail)}</error>",
                "inconclusive": f"<skipped message={quoteattr('inconclusive: ' + v.detail)}/>"}[v.status]
        cases.append(f'  <testcase classname={quoteattr("gate." + gate)} name={quoteattr(v.rule)}>{body}</testcase>')
    if error:
        cases.append(f'  <testcase classname={quoteattr("gate." + gate)} name="evaluate">'
                     f"<error message={quoteattr(error)}>{escape(error)}</error></testcase>")
    failures = sum(v.status == "fail" for v in verdicts)
    errors = sum(v.status == "error" for v in verdicts) + (1 if error else 0)
    skipped = sum(v.status == "inconclusive" for v in verdicts)
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name={quoteattr("gate." + gate)} '
            f'tests="{len(cases)}" failures="{failures}" errors="{errors}" skipped="{skipped}">\n'
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


# added after the first schema; extra: a rule's own numbers as JSON (latency: ci, p, aa, aa_offset, ...)
RULE_COLUMNS = {"status": "TEXT", "band_lo": "REAL", "band_hi": "REAL", "extra": "TEXT"}


def append_history(db: Path, gate: str, snapshot: dict, verdicts: list[Verdict], code: int) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(str(db), timeout=60) as con:
        con.execute("CREATE TABLE IF NOT EXISTS gate_runs (id INTEGER PRIMARY KEY, gate TEXT, at TEXT, "
                    "git_commit TEXT, exit_code INTEGER, overrides TEXT)")
        con.execute("CREATE TABLE IF NOT EXISTS gate_rules (run_id INTEGER, rule TEXT, passed INTEGER, "
                    "baseline REAL, current REAL, detail TEXT)")
        have = {row[1] for row in con.execute("PRAGMA table_info(gate_rules)")}
        for col, kind in RULE_COLUMNS.items():
            if col not in have:
                con.execute(f"ALTER TABLE gate_rules ADD COLUMN {col} {kind}")
        cur = con.execute("INSERT INTO gate_runs (gate, at, git_commit, exit_code, overrides) VALUES (?,?,?,?,?)",
                          (gate, snapshot.get("when"), snapshot.get("commit"), code,
                           json.dumps(snapshot.get("overrides") or [])))
        con.executemany("INSERT INTO gate_rules (run_id, rule, passed, baseline, current, detail, status, band_lo, "
                        "band_hi, extra) VALUES (?,?,?,?,?,?,?,?,?,?)",
                        [(cur.lastrowid, v.rule, int(v.passed), v.baseline, v.current, v.detail, v.status,
                          v.band[0], v.band[1], json.dumps(v.extra, sort_keys=True)) for v in verdicts])


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
    written.append(write_trend_page(history, history.parent / "gate.html"))
    return written
