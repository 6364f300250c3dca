"""reports/gate.html: every gate rule over reports/gate.sqlite (report/gate_db.py), with its baseline and tolerance band.

One inline SVG per gate and rule: the measured value per gate run (a point coloured by the rule's
status), the baseline it was judged against (dashed), and the band of values that pass (shaded:
quality ``baseline - tolerance`` and up, latency a ratio below ``min_ratio``). No script; the
leaderboard links here.
"""
from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from hermes_eval.cache.content import atomic_write_bytes

W, H, PAD = 560, 170, 34
COLORS = {"pass": "#1a7f37", "fail": "#cf222e", "inconclusive": "#bf8700", "error": "#6a737d"}


@dataclass(frozen=True)
class Point:
    run: int
    at: str
    commit: str
    status: str
    baseline: float | None
    current: float | None
    lo: float | None
    hi: float | None


def read_history(db: Path) -> dict[tuple[str, str], list[Point]]:
    """(gate, rule) -> its points in run order; rows from before the band columns get none."""
    if not db.exists():
        return {}
    with sqlite3.connect(str(db), timeout=60) as con:
        cols = {row[1] for row in con.execute("PRAGMA table_info(gate_rules)")}
        extra = "r.status, r.band_lo, r.band_hi" if "status" in cols else "NULL, NULL, NULL"
        rows = con.execute(f"SELECT g.gate, r.rule, g.id, g.at, g.git_commit, r.passed, r.baseline, r.current, "
                           f"{extra} FROM gate_rules r JOIN gate_runs g ON g.id = r.run_id ORDER BY g.id").fetchall()
    out: dict[tuple[str, str], list[Point]] = {}
    for gate, rule, rid, at, commit, passed, base, cur, status, lo, hi in rows:
        status = status or ("pass" if passed else "fail")
        out.setdefault((gate, rule), []).append(Point(rid, at or "", commit or "", status, base, cur, lo, hi))
    return out


def _finite(values) -> list[float]:
    return [v for v in values if v is not None and math.isfinite(v)]


def svg(points: list[Point]) -> Markup:
    """The chart of one rule (x: gate runs in order, y: value)."""
    ys = _finite([v for p in points for v in (p.current, p.baseline, p.lo, p.hi)])
    if not ys:
        return Markup('<p class="muted">no values recorded</p>')
    lo, hi = min(ys), max(ys)
    span = (hi - lo) or max(abs(hi), 1.0) * 0.1
    lo, hi = lo - span * 0.15, hi + span * 0.15
    n = len(points)
    x = lambda i: PAD + (W - 2 * PAD) * (i + 0.5) / n  # noqa: E731
    y = lambda v: H - PAD + (v - lo) / (hi - lo) * (2 * PAD - H)  # noqa: E731
    clamp = lambda v, edge: edge if v is None else min(max(v, lo), hi)  # noqa: E731
    parts = [f'<svg class="trend" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img">',
             f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" class="axis"/>',
             f'<text x="4" y="{y(hi) + 10:.1f}" class="tick">{hi:.4g}</text>',
             f'<text x="4" y="{y(lo):.1f}" class="tick">{lo:.4g}</text>']
    half = (W - 2 * PAD) / n / 2
    for i, p in enumerate(points):  # the band of passing values, per run (tolerances can change)
        if p.lo is None and p.hi is None:
            continue
        top, bottom = y(clamp(p.hi, hi)), y(clamp(p.lo, lo))
        parts.append(f'<rect class="band" x="{x(i) - half:.1f}" y="{top:.1f}" width="{2 * half:.1f}" '
                     f'height="{max(bottom - top, 0):.1f}"/>')
    base = [(x(i), y(p.baseline)) for i, p in enumerate(points) if p.baseline is not None]
    if base:
        parts.append('<polyline class="baseline" points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in base) + '"/>')
    cur = [(i, p) for i, p in enumerate(points) if p.current is not None]
    if cur:
        parts.append('<polyline class="value" points="' + " ".join(f"{x(i):.1f},{y(p.current):.1f}" for i, p in cur)
                     + '"/>')
    for i, p in cur:
        tip = escape(f"run {p.run} at {p.at}, commit {p.commit[:12]}: {p.current:.4f} ({p.status})")
        parts.append(f'<circle class="pt {p.status}" cx="{x(i):.1f}" cy="{y(p.current):.1f}" r="3.5" '
                     f'fill="{COLORS.get(p.status, "#000")}"><title>{tip}</title></circle>')
    parts.append("</svg>")
    return Markup("".join(parts))


def render(history: dict[tuple[str, str], list[Point]]) -> str:
    from hermes_eval.report.html import env

    gates: dict[str, list[dict]] = {}
    for (gate, rule), points in sorted(history.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        last = points[-1]
        gates.setdefault(gate, []).append({"rule": rule, "svg": svg(points), "last": last, "n": len(points)})
    return env().get_template("gate.html.j2").render(gates=gates, colors=COLORS)


def write_trend_page(db: Path, out: Path) -> Path:
    """Render ``out`` (reports/gate.html) from the history database ``db``."""
    atomic_write_bytes(out, render(read_history(db)).encode("utf-8"))
    out.chmod(0o644)
    return out
