"""Published numbers beside ours: each benchmark record (``conf/benchmarks/NAME.yaml``) lists, per
query set, what a paper or public leaderboard reports (system, metric, value, source) and which of our
arms it corresponds to; ``leaderboard --anchors BOARD`` sets those of every record of that board (or of an
anchors file) beside our runs, with the difference and the anchor's note on what differs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import pandas as pd
import yaml

from hermes_eval.config.benchmarks import AVERAGES, Anchor, boards
from hermes_eval.core.errors import UserError
from hermes_eval.record.folder import RunFiles
from hermes_eval.report.options import BoardLimits

__all__ = ["AVERAGES", "Anchor", "AnchorNotes", "AnchorRow", "anchor_notes", "anchor_rows", "anchors_for", "limits_for", "load_anchors",
           "main_scores_for", "shown_for"]


@dataclass(frozen=True)
class AnchorRow:
    """One anchor against one of our runs (``ours`` None: no run of that arm on the board)."""

    anchor: Anchor
    ours: float | None
    ci: tuple[float, float] | None
    system: str
    chunker: str | None
    best: tuple[str, float] | None = None  # (label, value) of the board's best arm on the metric, when not this one

    @property
    def arm(self) -> str:
        return f"{self.chunker}/{self.system}" if self.chunker else self.system


MARKS = "abcdefghijklmnopqrstuvwxyz"  # an anchor row's arm that is not the board's best: its footnote


@dataclass(frozen=True)
class AnchorNotes:
    """An anchors table's footnotes, each written once below it: every arm compared that is not the board's
    best (marked a, b, ...: the arm, the best, the record's reason) and every note on what differs (1, 2, ...)."""

    arms: tuple[tuple[str, str, str, str], ...]  # (mark, arm, the board's best arm, reason or "")
    notes: tuple[str, ...]  # note n is notes[n - 1]

    def arm_mark(self, row: AnchorRow) -> str:
        """The row's arm footnote mark ("" when its arm is the board's best)."""
        if row.best is None:
            return ""
        return next(m for m, arm, best, why in self.arms if (arm, best, why) == (row.arm, row.best[0],
                                                                                 row.anchor.arm_reason))

    def note_number(self, row: AnchorRow) -> int | None:
        return self.notes.index(row.anchor.note) + 1 if row.anchor.note else None


def anchor_notes(rows: tuple[AnchorRow, ...]) -> AnchorNotes:
    """The footnotes of ``rows``, in the order the rows first name them."""
    arms = dict.fromkeys((r.arm, r.best[0], r.anchor.arm_reason) for r in rows if r.best is not None)
    notes = dict.fromkeys(r.anchor.note for r in rows if r.anchor.note)
    return AnchorNotes(tuple((MARKS[i % len(MARKS)], *k) for i, k in enumerate(arms)), tuple(notes))


def load_anchors(path: Path) -> tuple[tuple[Anchor, ...], tuple[str, ...]]:
    """(anchors, extra metric columns) from an anchors file (``columns:`` and ``anchors:``, each entry as a
    record's); errors name the entry and field."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: cannot read anchors ({type(exc).__name__}): check the file") from None
    anchors = tuple(Anchor.parse(a, f"{path} anchors[{i}]") for i, a in enumerate(data.get("anchors") or []))
    return anchors, tuple(str(c) for c in data.get("columns") or ())


def anchors_for(name: str, conf_dir: Path) -> tuple[tuple[Anchor, ...], tuple[str, ...]]:
    """(anchors, extra columns) of ``--anchors NAME``: an anchors file, or a board, whose records in
    ``conf_dir``/benchmarks give their anchors and columns (in record order)."""
    if Path(name).is_file():
        return load_anchors(Path(name))
    known = boards(conf_dir)
    if name not in known:
        raise UserError(f"--anchors {name}: no such file and no board of that name in conf/benchmarks/*.yaml "
                        f"(boards: {', '.join(sorted(known))})")
    return known[name].anchors, known[name].columns


def main_scores_for(name: str, conf_dir: Path) -> tuple[tuple[str, str], ...]:
    """(query set, main score) of ``--anchors NAME``'s records: each ranks its own sets' tables (none
    for an anchors file)."""
    if Path(name).is_file():
        return ()
    known = boards(conf_dir)
    return known[name].main_scores if name in known else ()


def shown_for(name: str, conf_dir: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(query set, the measures its markdown table shows) of ``--anchors NAME``'s records (none for an
    anchors file: its sets show every quality column)."""
    if Path(name).is_file():
        return ()
    known = boards(conf_dir)
    return known[name].shown if name in known else ()


def limits_for(name: str | None, conf_dir: Path) -> BoardLimits:
    """What ``--anchors NAME``'s board keeps of query text and gold code (its records' ``board_limits``);
    the defaults for an anchors file or no --anchors."""
    if not name or Path(name).is_file():
        return BoardLimits()
    known = boards(conf_dir)
    return BoardLimits.of(known[name].limits) if name in known else BoardLimits()


def _over_repos(per_query: pd.DataFrame, metric: str) -> tuple[float, tuple[float, float]] | None:
    """Mean of the per-repository means of ``metric`` with its stratified bootstrap CI."""
    from hermes_eval.judge.macro import macro_mean

    if per_query.empty or metric not in per_query or "repo" not in per_query:
        return None
    return macro_mean({str(r): g[metric].to_numpy() for r, g in per_query.groupby("repo", sort=True)})


def _best(rows: pd.DataFrame, metric: str) -> tuple[str, float] | None:
    """(chunker/system, value) of the first row, in the board's order, with the highest ``metric``."""
    if metric not in rows.columns or not rows[metric].notna().any():
        return None
    r = rows.loc[rows[metric].astype(float).idxmax()]
    return f"{r['chunker']}/{r['system']}", float(r[metric])


def _unless_best(best: tuple[str, float] | None, row: pd.Series, metric: str) -> tuple[str, float] | None:
    """``best`` when ``row`` falls short of it on ``metric`` (None when ``row`` is the board's best)."""
    return best if best is not None and float(row[metric]) < best[1] else None


def anchor_rows(anchors: tuple[Anchor, ...], queryset: str, rows: pd.DataFrame,
                files: Mapping[str, RunFiles] | None = None) -> list[AnchorRow]:
    """Every anchor of ``queryset`` with each of our runs of its arm (or one empty row), and the board's
    best arm on its metric where that is another; an anchor averaged over repositories reads the run's
    per-query scores (``files``: config hash -> run files)."""
    out: list[AnchorRow] = []
    for a in anchors:
        if queryset not in a.querysets:
            continue
        mine = rows[(rows["system"] == a.system) & ((rows["chunker"] == a.chunker) if a.chunker else True)]
        if mine.empty or a.metric not in rows.columns:
            out.append(AnchorRow(a, None, None, a.system, a.chunker))
        best = _best(rows, a.metric)
        for _, r in (mine.iterrows() if a.metric in rows.columns else ()):
            if a.average == "repos":
                got = _over_repos(files[str(r["config_hash"])].per_query, a.metric) if files else None
                if got is None:
                    out.append(AnchorRow(a, None, None, str(r["system"]), str(r["chunker"])))
                    continue
                value, ci = got
            else:
                value, ci = float(r[a.metric]), (float(r[f"{a.metric}_ci_low"]), float(r[f"{a.metric}_ci_high"]))
            out.append(AnchorRow(a, value, ci, str(r["system"]), str(r["chunker"]),
                                 _unless_best(best, r, a.metric)))
    return out
