"""Fixtures: a grid of fake-but-consistent run directories and the reports built from them."""
from __future__ import annotations

from pathlib import Path

import pytest

from fakeruns import gate_history, grid


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """reports/ built from three arms (two chunkers) and one failed run, planted with script tags, beside
    a gate history (so gate.html is written and linked)."""
    from hermes_eval.report.publish import build_reports

    root = tmp_path_factory.mktemp("report")
    grid(root / "runs")
    gate_history(root / "reports" / "history.sqlite")
    build_reports(root / "runs", root / "reports")
    return root / "reports"
