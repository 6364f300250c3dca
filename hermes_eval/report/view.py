"""Everything a leaderboard shows, computed once for both the HTML and the markdown renderer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import pandas as pd

from hermes_eval.config.identity import slug
from hermes_eval.report import charts
from hermes_eval.judge.tied_groups import TiedGroups, aligned, tied_groups
from hermes_eval.report.anchors import AnchorRow, anchor_rows
from hermes_eval.report.miss_table import MissTable, miss_table
from hermes_eval.report.explorer import Explorer, explorer
from hermes_eval.report.set_manifest import set_line
from hermes_eval.report.breakdown import NotableQuery, RepoTable, hygiene_rows, notable_queries, repo_table
from hermes_eval.report.compare import Mark, board_marks
from hermes_eval.report.hybrid_verdict import HybridVerdict, hybrid_verdict
from hermes_eval.report.curves import run_curves
from hermes_eval.report.fallbacks import fallback_notes
from hermes_eval.report.config_diff import DiffLine, config_diff, manifest
from hermes_eval.report.board_inputs import BoardInputs
from hermes_eval.report.board_run import BoardRun
from hermes_eval.judge.strata import COLUMN_PREFIX
from hermes_eval.report.gold_code import GoldCode
from hermes_eval.report.options import NOTABLE_QUERIES, RECALL_KS, STAGE_ORDER, ReportSettings
from hermes_eval.record.results import unusable_line
from hermes_eval.report.table import Board, boards, failed, short_hash

LATENCY_STAGE = "total"  # the Pareto chart's latency axis: end-to-end p95


@dataclass(frozen=True)
class RunDetail:
    """A row's config diff against the baseline and its manifest."""

    anchor: str
    label: str
    config_hash: str
    is_baseline: bool
    diff: tuple[DiffLine, ...]
    manifest: tuple[tuple[str, str], ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class BoardView:
    """One query set's board with its marks, charts and breakdowns."""

    board: Board
    slug: str
    labels: dict[str, str]  # config hash -> "chunker/system"
    marks: dict[tuple[str, str], Mark]
    charts: dict[str, bytes]  # name -> PNG
    repos: RepoTable
    notable_arm: str
    wins: tuple[NotableQuery, ...]
    losses: tuple[NotableQuery, ...]
    hygiene_cols: tuple[str, ...]
    hygiene: tuple[tuple[tuple, int], ...]
    details: tuple[RunDetail, ...]
    anchors: tuple[AnchorRow, ...] = ()  # published numbers beside ours
    languages: RepoTable | None = None  # per language of the queries' gold files
    strata: tuple[RepoTable, ...] = ()  # per stratum the query set declares (a mined set's year, localized)
    ties: TiedGroups | None = None  # arms not separable on the ranking metric (None: per-query data missing)
    misses: MissTable | None = None  # each arm's misses at k by cause
    repos_extra: tuple[RepoTable, ...] = ()  # per repository, metrics an anchor averages per repository
    set_line: str = ""  # what the query set is made of (its manifest: rows, skips, repeated ids)
    explorer: Explorer | None = None  # per-query data for the HTML explorer
    hybrid: HybridVerdict | None = None  # the best hybrid against the best BM25 arm, paired per query
    values_only: tuple[str, ...] = ()  # labels of the arms kept as per-query values only (no rankings)

    def values_note(self) -> str:
        """What the page leaves out for the values-only arms ('' when none)."""
        if not self.values_only:
            return ""
        return (f"Kept as per-query values only, to keep the results small: {', '.join(self.values_only)}. "
                f"Their rows, CIs, marks, tied groups, strata and the hybrid verdict read those values; the "
                f"recall curves, latency CDFs, misses table and explorer leave them out.")

    def tied(self, config_hash: str) -> str:
        """The arm's tied-group letters ('' when not computed)."""
        return self.ties.letters.get(config_hash, "") if self.ties is not None else ""

    @property
    def baseline_label(self) -> str:
        return self.labels[self.board.baseline]

    def mark(self, config_hash: str, metric: str) -> Mark:
        return self.marks.get((config_hash, metric), Mark("na", note="not tested"))


@dataclass(frozen=True)
class LeaderboardView:
    """All boards, the failed runs and the settings used."""

    boards: tuple[BoardView, ...]
    failed: pd.DataFrame
    settings: ReportSettings
    n_runs: int
    unusable: str | None = None  # "1 run unreadable: FOLDER (reason)": runs whose numbers cannot be read


def anchor(config_hash: str) -> str:
    return f"run-{slug(config_hash)}"


def row_label(row: pd.Series) -> str:
    return f"{row['chunker']}/{row['system']}"


def unique_labels(labels: dict[str, str]) -> dict[str, str]:
    """Labels shared by several runs get their short config hash appended (charts key by label)."""
    counts: dict[str, int] = {}
    for label in labels.values():
        counts[label] = counts.get(label, 0) + 1
    return {h: f"{lab} {short_hash(h)}" if counts[lab] > 1 else lab for h, lab in labels.items()}


def _stages(files: dict[str, BoardRun]) -> list[str]:
    found = {s for f in files.values() for s in f.stage_ms()}
    return [s for s in STAGE_ORDER if s in found] + sorted(found - set(STAGE_ORDER))


def _charts(b: Board, labels: dict[str, str], files: dict[str, BoardRun]) -> dict[str, bytes]:
    m, lat = b.sort_metric, f"{LATENCY_STAGE}_p95_ms"
    points = [charts.Point(rank, labels[r["config_hash"]], float(r.get(lat) or 0.0), float(r[m]),
                           float(r[f"{m}_ci_low"]), float(r[f"{m}_ci_high"]), r["config_hash"] == b.baseline)
              for rank, (_, r) in enumerate(b.rows.iterrows(), start=1) if pd.notna(r.get(m))]
    out = {"pareto": charts.pareto_chart(points, b.sort_metric)} if points else {}
    present = {h: f for h, f in files.items() if f.ranked_kept}  # values-only runs kept no rankings
    curves = {labels[h]: run_curves(f) for h, f in present.items()}
    if curves:
        out["recall"] = charts.recall_chart(curves, RECALL_KS)
    samples = {labels[h]: {s: v.to_numpy() for s, v in f.stage_ms().items()} for h, f in present.items()}
    if samples:
        out["latency"] = charts.latency_cdf_chart(samples, _stages(present))
    return out


def board_ties(b: Board, files: dict[str, BoardRun], s: ReportSettings) -> TiedGroups | None:
    """Tied groups of the board's arms on its ranking metric, queries paired by qid (those every
    arm has); None when an arm has no per-query values for it."""
    order = [str(h) for h in b.rows["config_hash"]]
    values = aligned({h: files[h].per_query for h in order}, b.sort_metric)
    return tied_groups(order, values, s.alpha, s.stat_test) if values is not None else None


def board_view(b: Board, records: dict[str, dict], runs: Mapping[str, BoardRun], s: ReportSettings,
               code: GoldCode = GoldCode({})) -> BoardView:
    """Compute marks, charts, breakdowns and details for one board (``runs``: config hash -> what the
    board reads of the run; ``code``: its query set's gold code, for the explorer)."""
    labels = unique_labels({r["config_hash"]: row_label(r) for _, r in b.rows.iterrows()})
    files = {h: runs[h] for h in labels}
    marks = board_marks(b.rows, records, files, b.quality, b.baseline, s)
    others = [h for h in labels if h != b.baseline]
    ranked = [h for h in others if files[h].ranked_kept]  # values-only runs kept no query text nor top id
    arm = (ranked or others or [b.baseline])[0]
    wins, losses = notable_queries(files[b.baseline], files[arm], b.sort_metric, NOTABLE_QUERIES)
    hcols, hrows = hygiene_rows(b.rows)
    base_cfg = records[b.baseline].get("config")
    details = tuple(RunDetail(anchor(h), labels[h], h, h == b.baseline,
                              tuple(config_diff(base_cfg, records[h].get("config"))),
                              tuple(manifest(records[h])), tuple(records[h].get("warnings") or []))
                    for h in labels)
    return BoardView(board=b, slug=slug(b.queryset), labels=labels, marks=marks,
                     charts=_charts(b, labels, files), repos=repo_table(labels, files, b.sort_metric),
                     notable_arm=labels[arm], wins=tuple(wins), losses=tuple(losses),
                     hygiene_cols=tuple(hcols), hygiene=tuple(hrows), details=details,
                     anchors=tuple(anchor_rows(s.anchors, b.queryset, b.rows, files)),
                     languages=repo_table(labels, files, b.sort_metric, by="language",
                                          notes=tuple(fallback_notes(records[h] for h in labels))),
                     strata=tuple(repo_table(labels, files, b.sort_metric, by=c) for c in declared_columns(files)),
                     ties=board_ties(b, files, s), misses=miss_table(labels, records, files),
                     explorer=explorer(labels, records, files, b.sort_metric, b.baseline, code=code),
                     set_line=set_line(((records[b.baseline].get("queryset_info") or {}).get("manifest")) or {}),
                     repos_extra=tuple(repo_table(labels, files, m) for m in dict.fromkeys(
                         a.metric for a in s.anchors if b.queryset in a.querysets and a.average == "repos")
                         if m != b.sort_metric),
                     hybrid=hybrid_verdict(b, {h: files[h].per_query for h in labels}, s),
                     values_only=tuple(labels[h] for h in labels if files[h].values_only))


def declared_columns(files: Mapping[str, BoardRun]) -> list[str]:
    """The per_query columns of the strata a board's query set declares (``stratum_<name>``), sorted."""
    return sorted({c for f in files.values() for c in f.per_query.columns if c.startswith(COLUMN_PREFIX)})


def build_view(df: pd.DataFrame, inputs: BoardInputs, s: ReportSettings) -> LeaderboardView:
    """The whole leaderboard (``df``: the records' table)."""
    by_hash = {str(r.get("config_hash")): r for r in inputs.records}
    views = tuple(board_view(b, by_hash, inputs.runs, s, inputs.codes.get(b.queryset, GoldCode({})))
                  for b in boards(df, s.baseline, s.columns, dict(s.main_scores), dict(s.shown)))
    return LeaderboardView(views, failed(df), s, len(df), unusable_line(inputs.records))
