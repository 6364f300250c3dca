"""Published numbers beside ours: ``conf/anchors/NAME.yaml`` lists, per query set, what a paper or
public leaderboard reports (system, metric, value, source) and which of our arms it corresponds
to; each board then shows both, the difference, and the anchor's note on what differs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import pandas as pd
import yaml

from hermes_eval.core.errors import UserError
from hermes_eval.record.folder import RunFiles


@dataclass(frozen=True)
class Anchor:
    querysets: tuple[str, ...]  # boards it goes on
    published: str  # who reports it, for which system
    metric: str  # our metric name it is set against (e.g. ndcg@10)
    value: float
    system: str  # our arm's label (e.g. exact, mteb_bm25)
    source: str
    chunker: str | None = None  # our arm's chunker, when it matters
    note: str = ""
    average: str = "queries"  # how the published value averages: over queries, or "repos" (mean of
    # the per-repository means, as CodeRAG-Bench reports RepoEval); ours is then averaged the same way


@dataclass(frozen=True)
class AnchorRow:
    """One anchor against one of our runs (``ours`` None: no run of that arm on the board)."""

    anchor: Anchor
    ours: float | None
    ci: tuple[float, float] | None
    system: str
    chunker: str | None


def load_anchors(path: Path) -> tuple[tuple[Anchor, ...], tuple[str, ...]]:
    """(anchors, extra metric columns) from an anchors file; errors name the entry and field."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: cannot read anchors ({type(exc).__name__}): check the file") from None
    out = []
    for i, a in enumerate(data.get("anchors") or []):
        where = f"{path} anchors[{i}]"
        missing = [k for k in ("querysets", "published", "metric", "value", "system", "source") if k not in a]
        if missing:
            raise UserError(f"{where}: field {missing[0]!r} is missing: add it")
        try:
            value = float(a["value"])
        except (TypeError, ValueError):
            raise UserError(f"{where}: field 'value' must be a number, got {a['value']!r}") from None
        qsets = a["querysets"] if isinstance(a["querysets"], list) else [a["querysets"]]
        average = str(a.get("average") or "queries")
        if average not in AVERAGES:
            raise UserError(f"{where}: field 'average' must be one of {', '.join(AVERAGES)}, got {average!r}")
        out.append(Anchor(tuple(str(q) for q in qsets), str(a["published"]), str(a["metric"]), value,
                          str(a["system"]), str(a["source"]), a.get("chunker"), str(a.get("note") or ""),
                          average))
    return tuple(out), tuple(str(c) for c in data.get("columns") or ())


AVERAGES = ("queries", "repos")


def _over_repos(per_query: pd.DataFrame, metric: str) -> tuple[float, tuple[float, float]] | None:
    """Mean of the per-repository means of ``metric`` with its stratified bootstrap CI."""
    from hermes_eval.judge.macro import macro_mean

    if per_query.empty or metric not in per_query or "repo" not in per_query:
        return None
    return macro_mean({str(r): g[metric].to_numpy() for r, g in per_query.groupby("repo", sort=True)})


def anchor_rows(anchors: tuple[Anchor, ...], queryset: str, rows: pd.DataFrame,
                files: Mapping[str, RunFiles] | None = None) -> list[AnchorRow]:
    """Every anchor of ``queryset`` with each of our runs of its arm (or one empty row); an anchor
    averaged over repositories reads the run's per-query scores (``files``: config hash -> run files)."""
    out: list[AnchorRow] = []
    for a in anchors:
        if queryset not in a.querysets:
            continue
        mine = rows[(rows["system"] == a.system) & ((rows["chunker"] == a.chunker) if a.chunker else True)]
        if mine.empty or a.metric not in rows.columns:
            out.append(AnchorRow(a, None, None, a.system, a.chunker))
        for _, r in (mine.iterrows() if a.metric in rows.columns else ()):
            if a.average == "repos":
                got = _over_repos(files[str(r["config_hash"])].per_query, a.metric) if files else None
                if got is None:
                    out.append(AnchorRow(a, None, None, str(r["system"]), str(r["chunker"])))
                    continue
                value, ci = got
            else:
                value, ci = float(r[a.metric]), (float(r[f"{a.metric}_ci_low"]), float(r[f"{a.metric}_ci_high"]))
            out.append(AnchorRow(a, value, ci, str(r["system"]), str(r["chunker"])))
    return out
