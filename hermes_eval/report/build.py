"""Rebuild reports/results.parquet and both leaderboards from every run record."""
from __future__ import annotations

from pathlib import Path

from hermes_eval.cache import atomic_write_bytes
from hermes_eval.report.html import render_html
from hermes_eval.report.markdown import render_markdown
from hermes_eval.results import collect


def build_reports(runs_dir: Path, out_dir: Path) -> list[Path]:
    df, records = collect(runs_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    if not df.empty:
        tmp = out_dir / ".results.parquet.tmp"
        df.to_parquet(tmp, index=False)
        tmp.replace(out_dir / "results.parquet")
        written.append(out_dir / "results.parquet")
    for name, text in (("leaderboard.md", render_markdown(df, records)),
                       ("leaderboard.html", render_html(df, records))):
        atomic_write_bytes(out_dir / name, text.encode("utf-8"))
        written.append(out_dir / name)
    return written
