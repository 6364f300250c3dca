"""Query sets on disk: ``datasets/NAME/queries.parquet`` (written by HF datasets) or ``queries.jsonl``,
plus ``manifest.json``. Loading validates every row and names the file, row and field."""
from __future__ import annotations

import json
import os
from pathlib import Path

from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.core import Query, Span


def _row(q: Query) -> dict:
    d = q.to_dict()
    d["meta"] = json.dumps(q.meta, sort_keys=True)
    return d


def save_queryset(qs: QuerySet, folder: Path) -> Path:
    """Write parquet through ``datasets`` and the manifest; each file atomically."""
    from datasets import Dataset, disable_progress_bars

    disable_progress_bars()

    folder.mkdir(parents=True, exist_ok=True)
    rows = [_row(q) for q in qs.queries]
    if not rows:
        raise UserError(f"query set {qs.name!r} is empty: loosen the generator's filters or use a larger corpus")
    tmp = folder / "queries.parquet.tmp"
    Dataset.from_list(rows).to_parquet(str(tmp))
    os.replace(tmp, folder / "queries.parquet")
    manifest = dict(qs.manifest, name=qs.name, format="parquet")
    tmp = folder / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, folder / "manifest.json")
    return folder


def _spans(value, where: str, field: str) -> tuple[Span, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise UserError(f"{where}: field {field!r} must be a list of {{path, start, end}} objects")
    out = []
    for i, s in enumerate(value):
        try:
            grade = s.get("grade")  # absent, or None where parquet unified it with graded spans
            span = Span(str(s["path"]), int(s["start"]), int(s["end"]), 1 if grade is None or grade != grade else int(grade))
        except (KeyError, TypeError, ValueError):
            raise UserError(f"{where}: field '{field}[{i}]' must have path, start and end "
                            f"(1-based line numbers)") from None
        if span.start < 1 or span.end < span.start:
            raise UserError(f"{where}: field '{field}[{i}]' has start={span.start} end={span.end}; "
                            f"need 1 <= start <= end")
        if span.path.startswith("/") or ".." in Path(span.path).parts:
            raise UserError(f"{where}: field '{field}[{i}]' path {span.path!r} must be relative to "
                            f"the corpus root and stay inside it")
        out.append(span)
    return tuple(out)


def parse_query(row: dict, where: str) -> Query:
    """One validated Query from a dict row."""
    if not isinstance(row, dict):
        raise UserError(f"{where}: expected a JSON object")
    for key in ("qid", "query"):
        if key not in row or row[key] is None:
            raise UserError(f"{where}: missing field {key!r}")
    if not isinstance(row["query"], str):
        raise UserError(f"{where}: field 'query' must be a string")
    meta = row.get("meta") or {}
    if isinstance(meta, str):
        meta = json.loads(meta) if meta else {}
    return Query(qid=str(row["qid"]), query=row["query"], gold=_spans(row.get("gold"), where, "gold"),
                 exclude=_spans(row.get("exclude"), where, "exclude"), kind=str(row.get("kind") or ""),
                 repo=str(row.get("repo") or ""), meta=meta)


_LAST: dict[tuple, QuerySet] = {}  # the last set read, by its files' identity (path, size, change time)


def _files_key(folder: Path) -> tuple:
    out: list = [str(folder.resolve())]
    for name in ("manifest.json", "queries.parquet", "queries.jsonl"):
        try:
            st = os.stat(folder / name)
        except OSError:
            out.append(None)
            continue
        out.append((st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(out)


def load_queryset(folder: Path) -> QuerySet:
    """The set in ``folder``, validated. A run reads it twice (planning its snapshot batches, then running): the
    second read of unchanged files is the first one's queries (frozen) with a copy of its manifest (a 1,047-query
    set takes 50 ms to read)."""
    folder = Path(folder)
    key = _files_key(folder)
    if key in _LAST:
        got = _LAST[key]
        return QuerySet(name=got.name, queries=got.queries, manifest=json.loads(json.dumps(got.manifest)))
    qs = _read_queryset(folder)
    _LAST.clear()
    _LAST[key] = QuerySet(name=qs.name, queries=qs.queries, manifest=json.loads(json.dumps(qs.manifest)))
    return qs


def _read_queryset(folder: Path) -> QuerySet:
    manifest_path = folder / "manifest.json"
    manifest: dict = {}
    if manifest_path.exists():
        try:
            manifest = json.loads(manifest_path.read_text())
        except json.JSONDecodeError as exc:
            raise UserError(f"{manifest_path}: invalid JSON at line {exc.lineno}: fix or regenerate the "
                            f"query set") from None
    parquet, jsonl = folder / "queries.parquet", folder / "queries.jsonl"
    if parquet.exists():
        rows = _read_parquet(parquet)
        where = lambda i: f"{parquet} row {i + 1}"  # noqa: E731
    elif jsonl.exists():
        rows = _read_jsonl(jsonl)
        where = lambda i: f"{jsonl} line {i + 1}"  # noqa: E731
    else:
        raise UserError(f"query set folder {folder} has no queries.parquet or queries.jsonl: run "
                        f"`hermes-eval datasets generate` or fix queryset.path")
    queries = [parse_query(r, where(i)) for i, r in enumerate(rows) if r is not None]
    if not queries:
        raise UserError(f"query set {folder} is empty: add queries or regenerate it")
    return QuerySet(name=manifest.get("name", folder.name), queries=tuple(queries), manifest=manifest)


def _read_parquet(path: Path) -> list[dict]:
    """The rows ``datasets`` wrote, read by pyarrow itself: what ``Dataset.from_parquet(..).to_list()``
    gives (tests/hermes_eval/querysets/test_store.py compares them on every committed set) without
    importing ``datasets``, 0.6 s of a small run."""
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).read().to_pylist()  # read_table goes through pyarrow.dataset and pandas
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for unreadable files
        raise UserError(f"{path}: cannot read parquet ({type(exc).__name__}): regenerate the query set") from None


def _read_jsonl(path: Path) -> list[dict | None]:
    rows: list[dict | None] = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read ({type(exc).__name__}): check the file") from None
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            rows.append(None)
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise UserError(f"{path} line {n}: invalid JSON ({exc.msg}): fix that line") from None
    return rows
