"""Where a reports folder keeps the gate's results database: ``gate.sqlite`` (named ``history.sqlite`` before
"history" meant the change-request board only; that name is read, and moved on the gate's next write, for one
release)."""
from __future__ import annotations

import os
from pathlib import Path

GATE_DB = "gate.sqlite"
OLD_GATE_DB = "history.sqlite"  # its name until this release


def gate_db(reports: Path) -> Path:
    """The database to read: ``gate.sqlite``, else ``history.sqlite`` when only that exists."""
    new, old = Path(reports) / GATE_DB, Path(reports) / OLD_GATE_DB
    return old if not new.exists() and old.exists() else new


def gate_db_to_write(reports: Path) -> Path:
    """``gate.sqlite``, moved from ``history.sqlite`` first when only that exists (so no result is left behind)."""
    new, old = Path(reports) / GATE_DB, Path(reports) / OLD_GATE_DB
    if not new.exists() and old.exists():
        os.replace(old, new)
    return new
