"""The files beside record.json: run.trec, qrels (chunk, file, module and line level), run.module.trec
(modules in the order of their first chunk, which chunk ids alone do not give), per_query.parquet."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Mapping, Sequence

from hermes_eval.core.failpoints import failpoint
from hermes_eval.core.measured import Measured
from hermes_eval.judge.hygiene import Hygiene
from hermes_eval.judge.score import Scores
from hermes_eval.judge.strata import COLUMN_PREFIX, NO_STRATUM
from hermes_eval.core import Query
from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.record.trec import write_qrels, write_run

TOP_SHOWN = 10
FILE_RUN = "run.file.trec"


def write_run_files(run_dir: Path, tag: str, queries: Sequence[Query], measured: Measured,
                    scores: Scores, hygiene: Hygiene | None = None, languages: Mapping[str, str] | None = None,
                    strata: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """``languages``: each query's language stratum (the language of its gold files), a column of
    per_query.parquet beside ``repo``; ``strata``: the query set's declared ones (name -> qid -> stratum),
    each a column ``stratum_<name>``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    write_run(run_dir / "run.trec", {q.qid: measured.rankings.get(q.qid, []) for q in queries}, tag=tag)
    failpoint("run.trec_written")
    write_qrels(run_dir / "qrels.trec", scores.chunk_qrels)
    write_qrels(run_dir / "qrels.file.trec", scores.file_qrels)
    write_qrels(run_dir / "qrels.line.trec", scores.line_qrels)
    write_qrels(run_dir / "qrels.module.trec", scores.module_qrels)
    write_run(run_dir / "run.module.trec", {q.qid: scores.module_rankings.get(q.qid, []) for q in queries}, tag=tag)
    if scores.file_rankings:  # a declared file score (judge/file_score.py): files are not in first-chunk order
        write_run(run_dir / FILE_RUN, {q.qid: scores.file_rankings.get(q.qid, []) for q in queries}, tag=tag)
    _write_per_query(run_dir / "per_query.parquet", queries, measured, scores.per_query, hygiene, languages or {},
                     strata or {})


def _write_per_query(path: Path, queries: Sequence[Query], m: Measured, values: dict,
                     hygiene: Hygiene | None, languages: Mapping[str, str],
                     strata: Mapping[str, Mapping[str, str]]) -> None:
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = []
    for i, q in enumerate(queries):
        row: dict[str, Any] = {"qid": q.qid, "query": q.query, "repo": q.repo, "kind": q.kind}
        if languages:
            row["language"] = languages.get(q.qid, "")
        for name, members in strata.items():
            row[COLUMN_PREFIX + name] = members.get(q.qid, NO_STRATUM)
        row.update({name: vals[q.qid] for name, vals in values.items()})
        row["top10"] = json.dumps(m.rankings[q.qid][:TOP_SHOWN])
        row["top10_scores"] = json.dumps(m.raw_scores[q.qid][:TOP_SHOWN])
        for stage, ns in m.stage_ns.items():
            row[f"ms_{stage}"] = ns[i] / 1e6
        row["ms_total"] = m.total_ns[i] / 1e6
        if hygiene is not None:  # which hygiene problems the query has, and where it leaks
            row["hygiene_flags"] = ",".join(hygiene.flags.get(q.qid, ()))
            row["leak_places"] = json.dumps(list(hygiene.places.get(q.qid, ())))
        rows.append(row)
    buf = io.BytesIO()
    pq.write_table(rows_table(rows), buf)
    atomic_write_bytes(path, buf.getvalue())


def rows_table(rows: list[dict[str, Any]]):
    """``rows`` as an Arrow table with text as large_string, as pandas wrote it. Read from JSON lines by
    Arrow's own reader: every other way into Arrow from Python objects imports pandas to ask whether they
    are pandas objects (0.3 s of a small run); values JSON cannot carry go the pandas-importing way. The
    reader is told which columns are text, so no cast (and no import of ``pyarrow.compute``) is needed."""
    import math

    import pyarrow as pa
    import pyarrow.json as pj

    plain = all(not isinstance(v, float) or math.isfinite(v) for r in rows for v in r.values())
    if rows and plain and all(list(r) == list(rows[0]) for r in rows):
        names = list(rows[0])
        text = [k for k in names if any(isinstance(r[k], str) for r in rows)]
        table = pj.read_json(io.BytesIO("\n".join(json.dumps(r) for r in rows).encode()),
                             read_options=pj.ReadOptions(block_size=1 << 30),
                             parse_options=pj.ParseOptions(explicit_schema=pa.schema(
                                 [pa.field(k, pa.large_string()) for k in text]))).select(names)
    else:
        table = pa.Table.from_pylist(rows)
    if not any(f.type == pa.string() for f in table.schema):
        return table
    return table.cast(pa.schema([pa.field(f.name, pa.large_string()) if f.type == pa.string() else f
                                 for f in table.schema]))


def write_record(run_dir: Path, record: dict) -> None:
    """Stage 5's last step: record.json, atomically, after every other file of the run."""
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(run_dir / "record.json", (json.dumps(record, indent=2, sort_keys=True) + "\n").encode())
