"""Everything a board's pages are made from: the run records, what the board reads of each finished run
(report/board_run.py) and, per query set, the code of its gold spans that the explorer shows. Read from
the run folders (and the corpora their records name) on a build from runs, or from the board's committed
results (report/board_results.py) on a rebuild, which then needs neither."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Collection

from hermes_eval.record.folder import RunFiles
from hermes_eval.report.board_run import BoardRun, from_folder
from hermes_eval.report.gold_code import GoldCode, read_gold_code
from hermes_eval.report.options import EXPLORER_CODE_MAX_FILES, BoardLimits


@dataclass(frozen=True)
class BoardInputs:
    """A board's records (in the board's order) and what its pages read of them."""

    records: list[dict]
    runs: dict[str, BoardRun]  # config hash -> what the board reads of each finished run
    codes: dict[str, GoldCode]  # query set -> the code of its runs' gold spans (the explorer's)


def set_code(record: dict, runs: Collection[BoardRun], limits: BoardLimits = BoardLimits()) -> GoldCode:
    """The code of every gold span of ``runs`` (one query set's), read from the corpus ``record`` names and
    clipped to ``limits``."""
    spans = {s for r in runs for v in r.gold.values() for s in v}
    return read_gold_code(record, spans, limits.code_lines, limits.code_chars, EXPLORER_CODE_MAX_FILES)


def from_runs(records: list[dict], metrics: Collection[str], limits: BoardLimits = BoardLimits(),
              gold_code: bool = True) -> BoardInputs:
    """What a board reads of its run folders: each finished run (keeping the per-query ``metrics``), and
    each query set's gold code from the corpus of its first finished run (query text and code as the
    board's ``limits`` clip them); no corpus is opened without ``gold_code`` (runs kept as values only)."""
    ok = [r for r in records if r.get("status") == "ok"]
    runs = {str(r["config_hash"]): from_folder(RunFiles(Path(r["_dir"])), metrics, limits) for r in ok}
    if not gold_code:
        return BoardInputs(records, runs, {})
    first: dict[str, dict] = {}
    for r in ok:
        first.setdefault(str(r.get("queryset")), r)
    codes = {qs: set_code(rec, [runs[str(r["config_hash"])] for r in ok if str(r.get("queryset")) == qs], limits)
             for qs, rec in first.items()}
    return BoardInputs(records, runs, codes)


__all__ = ["BoardInputs", "from_runs", "set_code"]
