"""HTML leaderboard: inline CSS and JS, the chart PNGs and each board's explorer data script beside the
page (charts/, explorer/; relative links, so it works from file:// too); jinja2 autoescape on (queries,
code and errors are untrusted text); a CSP that lets only our own inline script and the page's own
files run."""
from __future__ import annotations

import base64
import hashlib
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from hermes_eval.report.anchors import anchor_notes
from hermes_eval.report.explorer import sidecar_path
from hermes_eval.report.markdown import chart_path
from hermes_eval.report.table import cell_text, fmt_ci, fmt_num, short_hash
from hermes_eval.report.view import LeaderboardView, anchor

TEMPLATE = "leaderboard.html.j2"
CSS = "leaderboard.css"
SCRIPTS = ("leaderboard.js", "explorer.js")  # one inline script (the CSP allows exactly its hash)
# What builds a page's charts and explorer data from the committed results; the page says it in one line
# at the top when one of them is not beside it (build outputs, not tracked)
BUILD_COMMAND = "make boards"


def _asset(name: str) -> str:
    return resources.files("hermes_eval.report").joinpath("templates", name).read_text(encoding="utf-8")


def csp(script: str) -> str:
    """Content-Security-Policy allowing the inline script with this exact text, and images and scripts
    only from the page's own origin (its charts and explorer data files)."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; "
            f"script-src 'sha256-{digest}' 'self'; base-uri 'none'; form-action 'none'")


def num_attr(value) -> str:
    """A sort key for ``data-v``: the number, or empty when missing."""
    text = fmt_num(value, 6)
    return "" if text == "–" else text


def env() -> Environment:
    """The jinja2 environment with autoescape on for every template and string."""
    e = Environment(loader=PackageLoader("hermes_eval.report", "templates"),
                    autoescape=select_autoescape(default=True, default_for_string=True),
                    trim_blocks=True, lstrip_blocks=True)
    e.filters.update(ci=fmt_ci, num=fmt_num, v=num_attr, anchor=anchor, txt=cell_text, short=short_hash)
    e.globals.update(chart_path=chart_path, sidecar_path=sidecar_path, build_command=BUILD_COMMAND,
                     anchor_notes=anchor_notes)
    return e


def render_html(view: LeaderboardView, gate_page: str | None = None) -> str:
    """The leaderboard page (linking the gate trend page ``gate_page`` when there is one)."""
    css, js = _asset(CSS), "\n".join(_asset(n) for n in SCRIPTS)
    return env().get_template(TEMPLATE).render(
        view=view, s=view.settings, css=Markup(css), js=Markup(js), csp=csp(js), gate_page=gate_page)
