"""Whether the leaderboards already show what ``runs/`` holds: a warm ``make sweep`` (every arm
skipped) then reuses them instead of recomputing every paired test and chart.

The key covers everything a board is made of: each run folder's name with the sha256 of its
record.json and of every file beside it (built from a board's committed results: each of their
files), the report settings, the report code (the modules of
:mod:`hermes_eval.report` and what they import from the project, library versions, and the page
templates, styles and scripts) and the gate history when there is one. Any change rebuilds; a missing output rebuilds.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

from hermes_eval.record.results import run_dirs

KEY_FILE = ".leaderboard.key"
RESULTS_INDEX = "board.json"  # names a board's committed results folder (report/board_results.py INDEX)
CODE = ("hermes_eval.report.publish",)
TEMPLATES = Path(__file__).resolve().parent / "templates"  # jinja2 templates, CSS and JS: code the pages are made of


def _file_sha(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def board_key(runs_dir: Path, settings, history: Path | None, templates: Path = TEMPLATES) -> str:
    from retrievers.identity.libraries import closure, library_versions

    h = hashlib.sha256()
    h.update(repr(settings).encode())
    sources, _ = closure(CODE)  # a board is seconds to rebuild: its key follows the source text itself
    h.update(repr((sorted(sources.items()), library_versions(CODE, ("jinja2", "matplotlib", "pandas", "ranx",
                                                                   "scipy")))).encode())
    for f in sorted(p for p in templates.rglob("*") if p.is_file()):
        h.update(f"{f.relative_to(templates).as_posix()}\0{_file_sha(f)}\0".encode())
    for run_dir in sorted(run_dirs(runs_dir)):
        for f in sorted(p for p in run_dir.rglob("*") if p.is_file()):
            h.update(f"{f.relative_to(runs_dir).as_posix()}\0{_file_sha(f)}\0".encode())
    if (Path(runs_dir) / RESULTS_INDEX).is_file():  # a board's committed results (leaderboard --from-results)
        for f in sorted(p for p in Path(runs_dir).iterdir() if p.is_file()):
            h.update(f"{f.name}\0{_file_sha(f)}\0".encode())
    if history is not None and history.exists():
        h.update(_file_sha(history).encode())
    return h.hexdigest()[:32]


def up_to_date(out_dir: Path, key: str, outputs: Sequence[Path]) -> bool:
    """True when the last build in ``out_dir`` had ``key`` and its outputs are all still there."""
    stamp = out_dir / KEY_FILE
    try:
        lines = stamp.read_text().splitlines()
    except OSError:
        return False
    return bool(lines) and lines[0] == key and bool(outputs) and all(p.exists() for p in outputs)


def stamp(out_dir: Path, key: str, outputs: Sequence[Path]) -> None:
    """Remember the key and outputs of a finished build (written last)."""
    from hermes_eval.cache.content import atomic_write_bytes

    lines = [key, *(p.relative_to(out_dir).as_posix() for p in outputs)]
    atomic_write_bytes(out_dir / KEY_FILE, ("\n".join(lines) + "\n").encode())


def stamped_outputs(out_dir: Path) -> list[Path]:
    try:
        return [out_dir / line for line in (out_dir / KEY_FILE).read_text().splitlines()[1:] if line]
    except OSError:
        return []
