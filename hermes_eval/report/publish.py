"""Rebuild reports/results.parquet, both leaderboards and their chart PNGs from every run record."""
from __future__ import annotations

import os
from pathlib import Path

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.report.freshness import HISTORY
from hermes_eval.report.html import render_html
from hermes_eval.report.markdown import chart_path, render_markdown
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.trend import write_trend_page
from hermes_eval.report.view import build_view
from hermes_eval.record.results import collect, to_frame

REPORT_MODE = 0o644  # reports are read by people and CI artifact uploaders, not just their writer
RESULTS = "results.parquet"
MARKDOWN = "leaderboard.md"
HTML = "leaderboard.html"
GATE_PAGE = "gate.html"  # the gate's trend page, drawn from its history (HISTORY)


def build_reports(runs_dir: Path, out_dir: Path, settings: ReportSettings | None = None,
                  records: list[dict] | None = None) -> list[Path]:
    """Write the results table, the charts, leaderboard.md and leaderboard.html (and, when the gate has
    a history in ``out_dir``, its trend page gate.html, linked from the HTML); return their paths.
    ``records``: those of ``runs_dir`` already read (each read checksums its run files), else read here."""
    settings = settings or ReportSettings()
    if records is None:
        df, records = collect(runs_dir)
    else:
        df = to_frame(records)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if not df.empty:
        tmp = out_dir / f".{RESULTS}.tmp"
        df.to_parquet(tmp, index=False)
        tmp.replace(out_dir / RESULTS)
        written.append(out_dir / RESULTS)
    view = build_view(df, records, settings)
    for bv in view.boards:
        for name, png in bv.charts.items():
            path = out_dir / chart_path(bv, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path, png)
            written.append(path)
    gate_page = None
    if (out_dir / HISTORY).exists():
        written.append(write_trend_page(out_dir / HISTORY, out_dir / GATE_PAGE))
        gate_page = GATE_PAGE
    for name, text in ((MARKDOWN, render_markdown(view)), (HTML, render_html(view, gate_page))):
        atomic_write_bytes(out_dir / name, text.encode("utf-8"))
        written.append(out_dir / name)
    for path in written:
        os.chmod(path, REPORT_MODE)
    return written
