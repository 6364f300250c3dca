"""Self-contained HTML leaderboard (jinja2 with autoescape: queries and code are untrusted)."""
from __future__ import annotations

import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape

from hermes_eval.report.table import QUALITY, boards, failed, fmt_ci


def _env() -> Environment:
    env = Environment(loader=PackageLoader("hermes_eval.report", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["ci"] = fmt_ci
    return env


def render_html(df: pd.DataFrame, records: list[dict]) -> str:
    return _env().get_template("leaderboard.html.j2").render(
        boards=boards(df) if not df.empty else [], failed=failed(df) if not df.empty else df,
        quality=QUALITY)
