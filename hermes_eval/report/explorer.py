"""The per-query explorer's data for one board: every query with its gold (spans, files, code) and
hygiene flags, and per arm its value, first gold rank, miss cause and top results marked hit,
right file or miss. Written beside the HTML page as a script that hands the data to the page
(``explorer/<board>.js``, :func:`sidecar_text`; a ``<script src>`` works from file:// where fetch does not);
the page's script renders it only when the explorer is opened (report/templates/explorer.js)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from markupsafe import Markup

from hermes_eval.report.board_run import BoardRun
from hermes_eval.report.gold_code import GoldCode, span_id
from hermes_eval.report.head_to_head import CAUSES, PAST_BUDGET, Arm, miss_cause
from hermes_eval.report.table import cell_text
from hermes_eval.report.options import EXPLORER_TOP
from retrievers.chunk import chunk_path

STRATA = ("repo", "language", "kind")
HIT = -1  # cause index of a query with gold in the top k
SIDECARS = "explorer"  # the folder beside the page holding each board's data script
REGISTRY = "HERMES_EXPLORER"  # the global the data scripts fill, one entry per board slug (the page's scripts read it)
# Characters a JSON text may not carry raw inside an HTML <script> element (JSON escapes them).
SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


@dataclass(frozen=True)
class Explorer:
    """One board's explorer data as script-safe JSON, and its size."""

    payload: Markup
    queries: int
    arms: int
    top: int = EXPLORER_TOP

    @property
    def kilobytes(self) -> float:
        return len(self.payload.encode("utf-8")) / 1024


def script_json(data: object) -> Markup:
    """``data`` as JSON safe to place inside ``<script type="application/json">``: no ``<``, ``>``
    or ``&`` survives, so no text can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, esc in SCRIPT_UNSAFE.items():
        text = text.replace(raw, esc)
    return Markup(text)


def sidecar_path(slug: str) -> str:
    """Where a board's explorer data is written, relative to the page."""
    return f"{SIDECARS}/{slug}.js"


def sidecar_text(slug: str, ex: Explorer) -> str:
    """The data script of one board: it adds the board's data to :data:`REGISTRY`."""
    return f"(window.{REGISTRY} = window.{REGISTRY} || {{}})[{json.dumps(slug)}] = {ex.payload};\n"


class Strings:
    """A string table: chunk ids repeat across arms and queries, so each is stored once."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, s: str) -> int:
        if s not in self._index:
            self._index[s] = len(self.items)
            self.items.append(s)
        return self._index[s]


def _num(v: object) -> float | None:
    try:
        f = float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if f != f else round(f, 4)


def _arm_rows(arm: Arm, qids: list[str], metric: str, k: int, strings: Strings) -> list[list | None]:
    """Per query: [value, first gold rank (0: none), cause index, top ids, hit mask, right-file mask]."""
    df = arm.files.per_query
    values = dict(zip(df["qid"].astype(str), df[metric])) if metric in df.columns else {}
    out: list[list | None] = []
    for qid in qids:
        if qid not in values:
            out.append(None)
            continue
        rels = arm.relevant(qid)
        gold_files = {d for d, r in arm.files.file_qrels.get(qid, {}).items() if r > 0}
        ranking = arm.files.rankings.get(qid, [])
        first = next((i for i, d in enumerate(ranking, start=1) if d in rels), 0)
        cause = miss_cause(arm, qid, k)
        index = CAUSES.index(cause) if cause else (len(CAUSES) if arm.past_budget(qid) else HIT)
        top = ranking[:EXPLORER_TOP]
        hits = sum(1 << i for i, d in enumerate(top) if d in rels)
        files = sum(1 << i for i, d in enumerate(top) if chunk_path(d) in gold_files)
        out.append([_num(values[qid]), first, index, [strings(d) for d in top], hits, files])
    return out


def explorer(labels: Mapping[str, str], records: Mapping[str, dict], files: Mapping[str, BoardRun], metric: str,
             baseline: str, k: int = 10, *, code: GoldCode) -> Explorer | None:
    """The explorer of a board whose arms are ``labels`` (config hash -> label), baseline first, showing
    the gold ``code`` of its query set (report/board_inputs.py); None when no arm has per-query results."""
    arms = {h: Arm(Path(records[h]["_dir"]), records[h], files[h]) for h in labels
            if files[h].ranked_kept and not files[h].per_query.empty}
    if not arms:
        return None
    order = [baseline] if baseline in arms else []
    order += [h for h in arms if h not in order]
    base = arms[order[0]].files
    qdf = base.per_query.drop_duplicates("qid")
    qids = [str(q) for q in qdf["qid"]]
    spans = {q: list(base.gold.get(q, ())) for q in qids}
    shown = sorted({s for v in spans.values() for s in v})
    code_text = {span_id(*s): code.text[span_id(*s)] for s in shown if span_id(*s) in code.text}
    strata = [s for s in STRATA if s in qdf.columns]
    queries = []
    for row in qdf.to_dict("records"):
        qid = str(row["qid"])
        flags = [f for f in cell_text(row.get("hygiene_flags")).split(",") if f]
        gold_files = sorted(d for d, r in base.file_qrels.get(qid, {}).items() if r > 0)
        queries.append({"id": qid, "t": cell_text(row.get("query")),  # clipped by board_table
                        **{s: cell_text(row.get(s)) for s in strata}, "f": flags,
                        "g": [span_id(*sp) for sp in spans[qid]], "gf": gold_files})
    strings = Strings()
    data = {"metric": metric, "k": k, "top": EXPLORER_TOP, "strata": strata,
            "causes": [*CAUSES, PAST_BUDGET],
            "arms": [{"label": labels[h], "hash": h} for h in order],
            "q": queries,
            "r": [_arm_rows(arms[h], qids, metric, k, strings) for h in order],
            "s": strings.items, "code": code_text, "code_note": code.note}
    return Explorer(script_json(data), len(queries), len(order))


__all__ = ["Explorer", "explorer", "script_json", "sidecar_path", "sidecar_text"]
