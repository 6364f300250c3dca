"""Published numbers beside ours: ``conf/anchors/NAME.yaml`` lists, per query set, what a paper or
public leaderboard reports (system, metric, value, source) and which of our arms it corresponds
to; each board then shows both, the difference, and the anchor's note on what differs."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from hermes_eval.core.errors import UserError


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
        out.append(Anchor(tuple(str(q) for q in qsets), str(a["published"]), str(a["metric"]), value,
                          str(a["system"]), str(a["source"]), a.get("chunker"), str(a.get("note") or "")))
    return tuple(out), tuple(str(c) for c in data.get("columns") or ())


def anchor_rows(anchors: tuple[Anchor, ...], queryset: str, rows: pd.DataFrame) -> list[AnchorRow]:
    """Every anchor of ``queryset`` with each of our runs of its arm (or one empty row)."""
    out: list[AnchorRow] = []
    for a in anchors:
        if queryset not in a.querysets:
            continue
        mine = rows[(rows["system"] == a.system) & ((rows["chunker"] == a.chunker) if a.chunker else True)]
        if mine.empty or a.metric not in rows.columns:
            out.append(AnchorRow(a, None, None, a.system, a.chunker))
        for _, r in (mine.iterrows() if a.metric in rows.columns else ()):
            ci = (float(r[f"{a.metric}_ci_low"]), float(r[f"{a.metric}_ci_high"]))
            out.append(AnchorRow(a, float(r[a.metric]), ci, str(r["system"]), str(r["chunker"])))
    return out
