"""SWE-bench Lite's identifying fields (tests/slices/cut.py says what a slice module holds): all 300 instances,
instance id, repository and base commit only (no issue text, no patch). No record reads it; the subset tests do."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

SOURCE = "{BENCH_DATA}/swe-bench"  # no record names this slice: where it is cut from


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    rows = json.loads((Path(source) / "lite.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    (out / "lite.json").write_text(json.dumps([{k: r[k] for k in ("instance_id", "repo", "base_commit")}
                                               for r in rows], indent=0) + "\n")
