"""Rebuild a board: reports/results.parquet, leaderboard.md and leaderboard.html with their chart PNGs and
explorer data scripts, from every run record (writing the board's committed results, results/, beside it)
or from those results alone (``leaderboard --from-results``: the same pages)."""
from __future__ import annotations

import os
import sys
from fnmatch import fnmatch
from pathlib import Path
from typing import Callable

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.core.errors import UserError
from hermes_eval.record.results import load_records, to_frame
from hermes_eval.report.board_inputs import BoardInputs, from_runs
from hermes_eval.report.board_merge import merge
from hermes_eval.report.board_results import INDEX, BoardResults, read_results, write_results
from hermes_eval.report.board_run import board_metrics, values_metrics
from hermes_eval.report.board_run import values_only as as_values
from hermes_eval.report.explorer import sidecar_path, sidecar_text
from hermes_eval.report.gate_db import gate_db
from hermes_eval.report.html import render_html
from hermes_eval.report.markdown import chart_path, render_markdown
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.trend import write_trend_page
from hermes_eval.report.view import build_view

REPORT_MODE = 0o644  # reports are read by people and CI artifact uploaders, not just their writer
RESULTS = "results.parquet"
RESULTS_DIR = "results"  # the board's committed results (report/board_results.py), beside its pages
MARKDOWN = "leaderboard.md"
HTML = "leaderboard.html"
GATE_PAGE = "gate.html"  # the gate's trend page, drawn from its results database (report/gate_db.py)


def stored_settings(settings: ReportSettings, anchors: str | None) -> dict:
    """The settings a board's results remember (``anchors``: the --anchors argument, resolved again on
    rebuild, so published numbers edited since show)."""
    return {"anchors": anchors, "baseline": settings.baseline, "stat_test": settings.stat_test,
            "alpha": settings.alpha, "n_permutations": settings.n_permutations, "seed": settings.seed}


def build_reports(runs_dir: Path, out_dir: Path, settings: ReportSettings | None = None,
                  records: list[dict] | None = None, anchors: str | None = None, merge: bool = False,
                  values_only: bool = False, values_only_match: tuple[str, ...] = ()) -> list[Path]:
    """Write the board's results (``out_dir``/results), the results table, the charts, the explorer data,
    leaderboard.md and leaderboard.html (and, when the gate has a history in ``out_dir``, its trend page
    gate.html, linked from the HTML); return their paths. ``records``: those of ``runs_dir`` already
    read (each read checksums its run files), else read here; ``anchors``: the --anchors argument;
    ``merge``: the runs go into the board's committed results (report/board_merge.py) instead of
    replacing them; ``values_only``: the runs are kept as per-query values only (board_run.values_only), and
    so are the committed results whose run folder's name matches a ``values_only_match`` glob."""
    settings = settings or ReportSettings()
    if records is None:
        records = load_records(runs_dir)
    metrics = board_metrics(settings)
    inputs = from_runs(records, metrics, settings.limits, gold_code=not values_only)
    if values_only:
        inputs = _values_only(inputs, lambda _: True, settings)
    if merge and (out_dir / RESULTS_DIR / INDEX).exists():
        inputs = _merged(out_dir / RESULTS_DIR, inputs, metrics, settings)
    if values_only_match:
        inputs = _values_only(inputs, lambda name: any(fnmatch(name, p) for p in values_only_match), settings)
    written = write_results(out_dir / RESULTS_DIR, inputs, stored_settings(settings, anchors), metrics,
                            settings.limits)
    for path in written:
        os.chmod(path, REPORT_MODE)
    return written + publish(out_dir, inputs, settings)


def build_from_results(results_dir: Path, out_dir: Path, settings: ReportSettings) -> list[Path]:
    """The board of the committed results in ``results_dir`` (what build_reports wrote there), written
    into ``out_dir``; the same pages as from the runs with the same ``settings``."""
    return publish(out_dir, _read_for(results_dir, board_metrics(settings), settings).inputs, settings)


def _read_for(results_dir: Path, metrics: frozenset[str], settings: ReportSettings) -> BoardResults:
    """The committed results, refused when they lack a per-query metric the board shows."""
    got = read_results(results_dir, settings.limits)
    missing = sorted(metrics - got.metrics)
    if missing:
        raise UserError(f"{results_dir}: per-query {', '.join(missing)} not kept in these results (the board "
                        f"was built with other --anchors); rebuild it from its runs with these settings")
    return got


def _merged(results_dir: Path, inputs: BoardInputs, metrics: frozenset[str], settings: ReportSettings) -> BoardInputs:
    """``inputs`` merged into the committed results, each result dropped for a changed set named."""
    merged = merge(_read_for(results_dir, metrics, settings).inputs, inputs)
    for line in merged.dropped:
        print(f"hermes-eval: {results_dir}: dropped (its query set changed since): {line}", file=sys.stderr)
    return merged.inputs


def _values_only(inputs: BoardInputs, chosen: Callable[[str], bool], settings: ReportSettings) -> BoardInputs:
    """``inputs`` with every run whose folder's name is ``chosen`` kept as values only (board_run.values_only)."""
    runs = dict(inputs.runs)
    for rec in inputs.records:
        key = str(rec.get("config_hash"))
        if key in runs and chosen(Path(str(rec.get("_dir"))).name):
            runs[key] = as_values(runs[key], values_metrics(settings, str(rec.get("queryset"))))
    return BoardInputs(inputs.records, runs, inputs.codes)


def publish(out_dir: Path, inputs: BoardInputs, settings: ReportSettings) -> list[Path]:
    """Write the pages of a board from what they are made of."""
    df = to_frame(inputs.records)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if not df.empty:
        tmp = out_dir / f".{RESULTS}.tmp"
        df.to_parquet(tmp, index=False)
        tmp.replace(out_dir / RESULTS)
        written.append(out_dir / RESULTS)
    view = build_view(df, inputs, settings)
    for bv in view.boards:
        for name, png in bv.charts.items():
            path = out_dir / chart_path(bv, name)
            atomic_write_bytes(path, png)
            written.append(path)
        if bv.explorer is not None:
            path = out_dir / sidecar_path(bv.slug)
            atomic_write_bytes(path, sidecar_text(bv.slug, bv.explorer).encode("utf-8"))
            written.append(path)
    gate_page = None
    if gate_db(out_dir).exists():
        written.append(write_trend_page(gate_db(out_dir), out_dir / GATE_PAGE))
        gate_page = GATE_PAGE
    for name, text in ((MARKDOWN, render_markdown(view)), (HTML, render_html(view, gate_page))):
        atomic_write_bytes(out_dir / name, text.encode("utf-8"))
        written.append(out_dir / name)
    for path in written:
        os.chmod(path, REPORT_MODE)
    return written
