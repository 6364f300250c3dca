"""The rankings table of a board's results (``rankings.parquet``, report/board_results.py): per query of
each finished run, the ranking as boards read it (Ranked: top ids and judged positions) at chunk and file
level, qrels at both levels and the gold line spans, written and read back. Every id is stored relative to
the row's snapshot prefix (report/relative_ids.py); a query's qrels and gold spans are stored once for the
arms of its set that share them, and the file level is left out where the chunk level gives it back
(whole-file chunking)."""
from __future__ import annotations

import re
from typing import Mapping, Sequence

import pyarrow as pa

from hermes_eval.report.board_parquet import RUN_KEY, parquet_bytes
from hermes_eval.report.board_run import BoardRun, Ranked
from hermes_eval.report.relative_ids import absolute, common_snapshot, relative

PREFIX = "prefix"  # the row's snapshot prefix; its ids are stored relative to it (format 2)
ID_COLUMNS = ("top", "deep_id", "ftop", "fdeep_id", "qrel_id", "fqrel_id", "gold_path")
# A query's qrels and gold spans are those of every arm of its set: a row whose JUDGED cells equal an
# earlier row's of the same qid leaves them empty and names that row's run in SHARED (format 2).
JUDGED = ("qrel_id", "qrel", "fqrel_id", "fqrel", "gold_path", "gold_first", "gold_last")
SHARED = "shared"
# Where every chunk id is ``path:first-last`` (one chunk per file: whole-file chunking), a query's file
# ranking, file qrels and gold spans follow from its chunk ranking and qrels; a row whose ones do, exactly,
# leaves them empty and says so in DERIVED (bits: FILE_RANKING, FILE_QRELS, GOLD; format 2).
DERIVED = "derived"
FILE_RANKING, FILE_QRELS, GOLD = 1, 2, 4
SPAN_ID = re.compile(r":(\d+)-(\d+)$")
STR_LIST, INT_LIST = pa.list_(pa.string()), pa.list_(pa.int32())
RANK_SCHEMA = pa.schema([
    (RUN_KEY, pa.int32()), ("qid", pa.string()), (PREFIX, pa.string()),
    ("top", STR_LIST), ("deep_pos", INT_LIST), ("deep_id", STR_LIST), ("n", pa.int32()),
    ("ftop", STR_LIST), ("fdeep_pos", INT_LIST), ("fdeep_id", STR_LIST), ("fn", pa.int32()),
    ("qrel_id", STR_LIST), ("qrel", INT_LIST), ("fqrel_id", STR_LIST), ("fqrel", INT_LIST),
    ("gold_path", STR_LIST), ("gold_first", INT_LIST), ("gold_last", INT_LIST), (SHARED, pa.int32()), (DERIVED, pa.int8())])


def _span(doc_id: str) -> tuple[str, int, int] | None:
    """(path, first, last) of a span id ``path:first-last``, else None."""
    m = SPAN_ID.search(doc_id)
    return None if m is None else (doc_id[:m.start()], int(m.group(1)), int(m.group(2)))


def _spans(qrels: Mapping[str, int] | None) -> dict[str, tuple[str, int, int]] | None:
    """Each qrel's span, or None when ``qrels`` are missing or one is not a span id."""
    spans = {d: _span(d) for d in qrels or ()}
    return None if qrels is None or None in spans.values() else spans  # type: ignore[return-value]


def _file_ranked(r: Ranked | None, file_qrels: Mapping[str, int] | None) -> Ranked | None:
    """The file ranking (judged positions only) of chunk ranking ``r`` when each chunk is a distinct file."""
    if r is None:
        return None
    ids = [*enumerate(r.top), *r.deep]
    paths = [s[0] for _, d in ids if (s := _span(d)) is not None]
    if len(paths) != len(ids) or len(set(paths)) != len(paths):
        return None
    judged = file_qrels or {}
    return Ranked((), tuple((i, path) for (i, _), path in zip(ids, paths) if path in judged), r.n)


def _file_qrels(qrels: Mapping[str, int] | None) -> dict[str, int] | None:
    """File qrels of span-id ``qrels``: each file's highest grade."""
    spans = _spans(qrels)
    if qrels is None or spans is None:
        return None
    out: dict[str, int] = {}
    for d, v in qrels.items():
        path = spans[d][0]
        out[path] = max(v, out.get(path, v))
    return out


def _gold(qrels: Mapping[str, int] | None) -> tuple | None:
    """Gold spans of span-id ``qrels``: the relevant ones, by path."""
    spans = _spans(qrels)
    if qrels is None or spans is None:
        return None
    return tuple(sorted(spans[d] for d, v in qrels.items() if v > 0))


def _derive_cells(row: dict, r: BoardRun, q: str) -> dict:
    """``row`` less the file-level cells its chunk ranking and qrels give back exactly (DERIVED)."""
    flags, qrels = 0, r.qrels.get(q)
    if q in r.file_ranked and _file_ranked(r.ranked.get(q), r.file_qrels.get(q)) == r.file_ranked[q]:
        flags |= FILE_RANKING
        row.update(ftop=None, fdeep_pos=None, fdeep_id=None, fn=None)
    files = _file_qrels(qrels)
    if row[SHARED] is None and q in r.file_qrels and files is not None \
            and list(files.items()) == list(r.file_qrels[q].items()):
        flags |= FILE_QRELS
        row.update(fqrel_id=None, fqrel=None)
    if row[SHARED] is None and q in r.gold and _gold(qrels) == tuple(r.gold[q]):
        flags |= GOLD
        row.update(gold_path=None, gold_first=None, gold_last=None)
    return {**row, DERIVED: flags or None}


def _relative_row(row: dict) -> dict:
    """``row`` with its prefix set and its ids stored relative to it."""
    prefix = common_snapshot(d for c in ID_COLUMNS for d in row[c] or ())
    return {**row, PREFIX: prefix,
            **{c: None if row[c] is None else [relative(prefix, d) for d in row[c]] for c in ID_COLUMNS}}


def _absolute_row(row: dict) -> dict:
    """A stored row with its ids whole again (format 1 rows hold them whole already)."""
    prefix = row.get(PREFIX)
    if prefix is None:
        return row
    return {**row, **{c: None if row[c] is None else [absolute(prefix, d) for d in row[c]] for c in ID_COLUMNS}}


def _ranked_cells(r: Ranked | None) -> tuple:
    if r is None:
        return None, None, None, None
    return list(r.top), [i for i, _ in r.deep], [d for _, d in r.deep], r.n


def _qrel_cells(rel: Mapping[str, int] | None) -> tuple:
    return (None, None) if rel is None else (list(rel), [int(v) for v in rel.values()])


def rankings_table(runs: Sequence[tuple[int, BoardRun]]) -> bytes:
    """The runs' kept rankings, qrels and gold spans (one row per run and query)."""
    cols: dict[str, list] = {f.name: [] for f in RANK_SCHEMA}
    held: dict[str, list[tuple[int, tuple]]] = {}  # qid -> (run, judged cells) of rows holding their own
    for i, r in runs:
        qids = dict.fromkeys([*r.ranked, *r.file_ranked, *r.qrels, *r.file_qrels, *r.gold])
        for q in qids:
            gold = r.gold.get(q)
            row = dict(zip(cols, (i, q, "", *_ranked_cells(r.ranked.get(q)), *_ranked_cells(r.file_ranked.get(q)),
                                  *_qrel_cells(r.qrels.get(q)), *_qrel_cells(r.file_qrels.get(q)),
                                  *((None, None, None) if gold is None else
                                    ([p for p, _, _ in gold], [a for _, a, _ in gold], [b for _, _, b in gold])),
                                  None)))
            judged = tuple(row[c] for c in JUDGED)
            same = next((j for j, cells in held.get(q, ()) if cells == judged), None)
            if same is None:
                held.setdefault(q, []).append((i, judged))
            else:
                row.update({c: None for c in JUDGED}, **{SHARED: same})
            for name, value in _relative_row(_derive_cells(row, r, q)).items():
                cols[name].append(value)
    return parquet_bytes(pa.table(cols, schema=RANK_SCHEMA))



def _ranked(top, pos, ids, n) -> Ranked | None:
    return None if n is None else Ranked(tuple(top), tuple(zip(pos, ids)), int(n))


PARTS = ("ranked", "file_ranked", "qrels", "file_qrels", "gold")


def rank_parts(rankings: pa.Table) -> dict[int, dict[str, dict]]:
    """run index -> its kept rankings, qrels and gold spans by qid."""
    parts: dict[int, dict[str, dict]] = {}
    shared, file_ranked = [], []
    for row in map(_absolute_row, rankings.to_pylist()):
        p = parts.setdefault(row[RUN_KEY], {k: {} for k in PARTS})
        q = row["qid"]
        if row.get(SHARED) is not None:
            shared.append((p, q, parts[row[SHARED]]))
        flags = row.get(DERIVED) or 0
        if flags & FILE_RANKING:
            file_ranked.append((p, q))
        if (r := _ranked(row["top"], row["deep_pos"], row["deep_id"], row["n"])) is not None:
            p["ranked"][q] = r
        if (r := _ranked(row["ftop"], row["fdeep_pos"], row["fdeep_id"], row["fn"])) is not None:
            p["file_ranked"][q] = r
        if row["qrel_id"] is not None:
            p["qrels"][q] = dict(zip(row["qrel_id"], row["qrel"]))
        if row["fqrel_id"] is not None:
            p["file_qrels"][q] = dict(zip(row["fqrel_id"], row["fqrel"]))
        if row["gold_path"] is not None:
            p["gold"][q] = tuple(zip(row["gold_path"], row["gold_first"], row["gold_last"]))
        if flags & FILE_QRELS:
            p["file_qrels"][q] = _file_qrels(p["qrels"].get(q))
        if flags & GOLD:
            p["gold"][q] = _gold(p["qrels"].get(q))
    for p, q, source in shared:
        for part in ("qrels", "file_qrels", "gold"):
            if q in source[part]:
                p[part][q] = source[part][q]
    for p, q in file_ranked:
        p["file_ranked"][q] = _file_ranked(p["ranked"].get(q), p["file_qrels"].get(q))
    return parts


__all__ = ["PARTS", "rank_parts", "rankings_table"]
