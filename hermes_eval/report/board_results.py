"""A board's committed results: what ``hermes-eval leaderboard`` reads of every run, written beside the
board (``<out>/results/``) on every build from run folders, so that ``leaderboard --from-results`` rebuilds
the same markdown and HTML without them, and without their corpora (``make boards``).

  board.json        format, the settings the board was built with and what it keeps (BoardLimits), its
                    runs (name, query set, config hash, status, whether only its per-query values are
                    kept: ``leaderboard --values-only``), the metrics kept per query, each file's sha256
  runs.json.xz      every record in the board's order with its run folder's name and path, less what no
                    board reads (DROPPED: its run files' checksums, per-stratum means, per-snapshot work,
                    the corpus's source list repeated in its corpus and query-set infos)
  queries.parquet   per query of each finished run: board_table (report/board_run.py)
  rankings.parquet  per query of each finished run: the ranking as boards read it, qrels and gold spans
                    (report/board_rankings.py: its layout, ids relative to each row's snapshot)
  latency.parquet   each finished run's per-stage latencies, sorted
  code.json.xz      per query set, the code of its gold spans as the explorer shows it (clipped)

The runs of every query set share each table, zstd-compressed with one dictionary per column, so a
query's text and the chunk ids that arms and sets share are stored once; latencies are integer
nanoseconds (or microseconds, where the board keeps three digits of a millisecond: BoardLimits) when that
gives every millisecond value back exactly (the runner writes ns / 1e6). The JSON
files are xz-compressed: its window spans the whole file, so a list or a set's code that two records or
two sets share is stored once (gzip's 32 KB window does not reach back that far).

Results of format 1 (gzip JSON, absolute ids, the default limits) are read as they are."""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import lzma
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.core.errors import UserError
from hermes_eval.report.board_inputs import BoardInputs
from hermes_eval.report.board_parquet import RUN_KEY, ids_plain, parquet_bytes
from hermes_eval.report.board_rankings import PARTS, rank_parts, rankings_table
from hermes_eval.report.board_run import TOP1, BoardRun, Ranked
from hermes_eval.report.gold_code import GoldCode
from hermes_eval.report.freshness import RESULTS_INDEX
from hermes_eval.report.options import KEEP_TOP, LATENCY_DIGITS, BoardLimits

FORMAT = 2
READS = (1, 2)  # formats this hermes-eval reads (1: boards committed before relative ids and limits)
INDEX = RESULTS_INDEX  # board.json (the board's freshness key hashes the folder it is in)
RECORDS = "runs.json.xz"
QUERIES = "queries.parquet"
RANKINGS = "rankings.parquet"
LATENCY = "latency.parquet"
CODE = "code.json.xz"
FILES = (RECORDS, QUERIES, RANKINGS, LATENCY, CODE)
NAMES_1 = {RECORDS: "runs.json.gz", CODE: "code.json.gz"}  # format 1's names, where they differ
# Record keys no board reads: run-file checksums, per-stratum means, per-snapshot counts and work; and
# nested ones: the corpus's source list as its corpus and query-set infos repeat it (the config keeps it).
DROPPED = ("files", "strata", "snapshots", "snapshot_work")
DROPPED_NESTED = (("corpus_info", "sources"), ("queryset_info", "manifest", "corpus_sources"))
# latency units the results store as integers, by the digits of a millisecond they keep (else float ms)
INT_UNITS = {LATENCY_DIGITS: "ns", 3: "us"}
PER_MS = {"ns": 1e6, "us": 1e3}


@dataclass(frozen=True)
class BoardResults:
    """A board's results as read back: what its pages are made of, and the settings it was built with."""

    inputs: BoardInputs  # records (each with its ``_dir``), runs, gold code per query set
    settings: dict  # anchors (the --anchors argument), baseline, stat_test, alpha, n_permutations, seed
    metrics: frozenset[str]  # the metrics whose per-query values were kept


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _unique(base: str, used: set[str]) -> str:
    """``base``, or ``base~2``, ``base~3``... when taken; remembered in ``used``."""
    name, k = base, 1
    while name in used:
        k += 1
        name = f"{base}~{k}"
    used.add(name)
    return name


def _exact_ints(ms: np.ndarray, per_ms: float) -> np.ndarray | None:
    """Milliseconds as integer counts of ``1 / per_ms`` ms when ``count / per_ms`` gives every one back
    exactly, else None."""
    n = np.rint(ms * per_ms)
    if ms.size and (np.isnan(ms).any() or not (np.abs(n) < 2 ** 53).all() or not (n / per_ms == ms).all()):
        return None
    return n.astype(np.int64)


def _xz_json(data: object) -> bytes:
    return lzma.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), preset=9 | lzma.PRESET_EXTREME)


def _json(name: str, data: bytes) -> object:
    """The JSON of a results file (xz, or gzip in format 1)."""
    return json.loads((gzip.decompress if name.endswith(".gz") else lzma.decompress)(data))


def _without(node: Mapping, path: Sequence[str]) -> Mapping:
    """``node`` less the key at ``path`` (copied along it, the rest shared), or itself when it has none."""
    head, rest = path[0], path[1:]
    if not rest:
        return {k: v for k, v in node.items() if k != head} if head in node else node
    return {**node, head: _without(node[head], rest)} if isinstance(node.get(head), dict) else node


def _lean(record: Mapping) -> dict:
    """``record`` without what no board reads (DROPPED, DROPPED_NESTED)."""
    out: Mapping = {k: v for k, v in record.items() if k not in DROPPED and k != "_dir"}
    for path in DROPPED_NESTED:
        out = _without(out, path)
    return dict(out)


def _first_ids(ranked: Mapping[str, Ranked], qids) -> list[str | None]:
    """Each query's first ranked chunk id (None: no ranking)."""
    return [rk.top[0] if (rk := ranked.get(str(q))) is not None and rk.top else None for q in qids]


def _without_top1(r: BoardRun) -> pd.DataFrame:
    """``r``'s per-query table, its TOP1 left empty where the ranking's first id gives it back (format 2)."""
    df = r.per_query
    if TOP1 not in df.columns:
        return df
    firsts = _first_ids(r.ranked, df["qid"])
    return df.assign(**{TOP1: [None if t == first else t for t, first in zip(df[TOP1], firsts)]})


def _with_top1(df: pd.DataFrame, ranked: Mapping[str, Ranked]) -> pd.DataFrame:
    """The per-query table :func:`_without_top1` stored, its TOP1 whole again."""
    if TOP1 not in df.columns or not df[TOP1].isna().any():
        return df
    firsts = _first_ids(ranked, df["qid"])
    return df.assign(**{TOP1: [first if pd.isna(t) else t for t, first in zip(df[TOP1], firsts)]})


def _queries_table(runs: Sequence[tuple[int, BoardRun]]) -> bytes:
    """The per-query tables of the runs, one after another."""
    frames = [_without_top1(r).assign(**{RUN_KEY: i}) for i, r in runs if r.present]
    df = pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame({RUN_KEY: []})
    df = df[[RUN_KEY, *[c for c in df.columns if c != RUN_KEY]]]
    df[RUN_KEY] = df[RUN_KEY].astype("int32")
    table = pa.Table.from_pandas(df, preserve_index=False)
    return parquet_bytes(table, use_dictionary=ids_plain(table))


def _latency_table(runs: Sequence[tuple[int, BoardRun]], limits: BoardLimits = BoardLimits()) -> tuple[bytes, str]:
    """(parquet, unit: ns, us or ms) of the runs' sorted per-stage latencies, to the digits ``limits`` keep."""
    keys, stages, parts = [], [], []
    for i, r in runs:
        for stage, ms in r.latency.items():
            keys += [i] * len(ms)
            stages += [stage] * len(ms)
            parts.append(np.asarray(ms, dtype=float))
    ms = np.concatenate(parts) if parts else np.zeros(0)
    unit = INT_UNITS.get(limits.kept_digits)
    ints = _exact_ints(ms, PER_MS[unit]) if unit is not None else None
    unit, values = (unit, pa.array(ints, pa.int64())) if ints is not None else ("ms", pa.array(ms, pa.float64()))
    table = pa.table({RUN_KEY: pa.array(keys, pa.int32()), "stage": pa.array(stages, pa.string()), unit: values})
    return parquet_bytes(table, use_dictionary=[RUN_KEY, "stage"]), unit


def _layout(df: pd.DataFrame) -> dict:
    return {"columns": [str(c) for c in df.columns], "dtypes": {str(c): str(t) for c, t in df.dtypes.items()}}


def write_results(out: Path, inputs: BoardInputs, settings: dict, metrics: frozenset[str],
                  limits: BoardLimits = BoardLimits()) -> list[Path]:
    """Write a board's results into ``out`` (replacing an earlier export; ``limits``: those ``inputs`` were
    read with); return the paths written."""
    taken: set[str] = set()
    names = [_unique(Path(str(rec.get("_dir") or "run")).name, taken) for rec in inputs.records]
    members, entries, index_runs = [], [], []
    for i, (rec, name) in enumerate(zip(inputs.records, names)):
        run = inputs.runs.get(str(rec.get("config_hash")))
        if run is not None:
            members.append((i, run))
        entries.append({"name": name, "run_dir": str(rec.get("_dir")),
                        "record": _lean(rec),
                        "table": _layout(run.per_query) if run is not None and run.present else None,
                        "stages": list(run.latency) if run is not None else []})
        index_runs.append({"name": name, "queryset": rec.get("queryset"), "config_hash": rec.get("config_hash"),
                           "status": rec.get("status"), "per_query": run is not None,
                           **({"values_only": True} if run is not None and run.values_only else {})})
    latency, unit = _latency_table(members, limits)
    files = {RECORDS: _xz_json(entries), QUERIES: _queries_table(members), RANKINGS: rankings_table(members),
             LATENCY: latency,
             CODE: _xz_json({qs: {"note": c.note, "text": dict(c.text)} for qs, c in inputs.codes.items()})}
    index = {"format": FORMAT,
             "about": "what hermes-eval leaderboard read of every run of this board; rebuild the board with "
                      "`hermes-eval leaderboard --from-results <this folder>` (make boards)",
             "settings": settings, "keep_top": KEEP_TOP, "limits": limits.stored(),
             "metrics": sorted(metrics), "latency_unit": unit, "runs": index_runs,
             "files": {n: _sha(b) for n, b in sorted(files.items())}}
    written = []
    for name, data in files.items():
        atomic_write_bytes(out / name, data)
        written.append(out / name)
    atomic_write_bytes(out / INDEX, (json.dumps(index, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return [*written, out / INDEX]


def _read(folder: Path, name: str, sums: Mapping[str, str]) -> bytes:
    try:
        data = (folder / name).read_bytes()
    except OSError as exc:
        raise UserError(f"{folder}: {name} unreadable ({type(exc).__name__}); rebuild the board from its runs "
                        f"(hermes-eval leaderboard --runs DIR) to write its results again") from None
    if sums.get(name) != _sha(data):
        raise UserError(f"{folder}: {name} does not match its checksum in {INDEX} (edited or cut); rebuild the "
                        f"board from its runs (hermes-eval leaderboard --runs DIR) to write its results again")
    return data


def _frame(df: pd.DataFrame, layout: dict) -> pd.DataFrame:
    out = df[layout["columns"]].reset_index(drop=True)
    for col, dtype in layout["dtypes"].items():
        if str(out[col].dtype) != dtype:  # e.g. int64 read back as float64 where other runs lack the column
            out[col] = out[col].astype(dtype)
    return out


def _latencies(table: pa.Table, unit: str) -> dict[int, dict[str, np.ndarray]]:
    """run index -> stage -> its sorted milliseconds (rows are grouped by run and stage)."""
    runs, stages = table.column(RUN_KEY).to_pylist(), table.column("stage").to_pylist()
    values = table.column(unit).to_numpy().astype(float)
    values = values / PER_MS[unit] if unit in PER_MS else values
    out: dict[int, dict[str, np.ndarray]] = {}
    start = 0
    for (run, stage), rows in groupby(zip(runs, stages)):
        n = sum(1 for _ in rows)
        out.setdefault(run, {})[stage] = values[start:start + n]
        start += n
    return out


def read_settings(folder: Path) -> dict:
    """The settings a board's results were written with (board.json), to rebuild the board with them."""
    return dict(_index(Path(folder)).get("settings") or {})


def _index(folder: Path) -> dict:
    try:
        index = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{folder}: no readable {INDEX} ({type(exc).__name__}); --from-results takes a board's "
                        f"results folder (e.g. reports/results), written by hermes-eval leaderboard --runs") from None
    if index.get("format") not in READS:
        raise UserError(f"{folder}: results format {index.get('format')!r}, this hermes-eval reads "
                        f"{' and '.join(map(str, READS))}; rebuild the board from its runs")
    return index


def _limits(index: Mapping) -> BoardLimits:
    """The limits results were written with (format 1: the defaults, but its recorded query characters)."""
    if index.get("format") == 1:
        return BoardLimits(query_chars=index.get("query_chars"))
    return BoardLimits.of(index.get("limits") or {})


def _serves(written: BoardLimits, asked: BoardLimits) -> bool:
    """Whether results written with ``written`` limits give a board of ``asked`` ones: the same limits, but
    latencies kept to more digits (rounded on reading, as a build from the runs rounds them)."""
    same = replace(written, latency_digits=0) == replace(asked, latency_digits=0)
    return same and written.kept_digits >= asked.kept_digits


def read_results(folder: Path, limits: BoardLimits = BoardLimits()) -> BoardResults:
    """A board's results as :func:`write_results` wrote them, each file checked against its checksum; refused
    when they were written keeping other results or ``limits`` than the board's now (latencies kept to more
    digits than ``limits`` ask are rounded here: a merge into them writes them with the board's digits)."""
    folder = Path(folder)
    index = _index(folder)
    written = (index.get("keep_top"), _limits(index))
    if written[0] != KEEP_TOP or not _serves(written[1], limits):
        raise UserError(f"{folder}: written keeping {written[0]} results and {written[1]}, the board now keeps "
                        f"{KEEP_TOP} and {limits} (conf/benchmarks board_limits); rebuild the board from its runs")
    sums = index.get("files") or {}
    old = index.get("format") == 1
    records_name, code_name = (NAMES_1[RECORDS], NAMES_1[CODE]) if old else (RECORDS, CODE)
    entries = _json(records_name, _read(folder, records_name, sums))
    records = [dict(e["record"], _dir=e["run_dir"]) for e in entries]
    codes = {qs: GoldCode(c["text"], c["note"]) for qs, c in _json(code_name, _read(folder, code_name, sums)).items()}
    queries = pd.read_parquet(io.BytesIO(_read(folder, QUERIES, sums)))
    rows = {int(i): df for i, df in queries.groupby(RUN_KEY, sort=False)}
    parts = rank_parts(pq.read_table(io.BytesIO(_read(folder, RANKINGS, sums))))
    latency = _latencies(pq.read_table(io.BytesIO(_read(folder, LATENCY, sums))), index["latency_unit"])
    runs: dict[str, BoardRun] = {}
    for i, about in enumerate(index.get("runs") or []):
        if not about.get("per_query"):
            continue
        layout, p = entries[i]["table"], parts.get(i) or {k: {} for k in PARTS}
        table = _frame(rows.get(i, queries.iloc[0:0]), layout) if layout is not None else pd.DataFrame()
        table = table if old else _with_top1(table, p["ranked"])
        runs[str(records[i].get("config_hash"))] = BoardRun(
            table, p["ranked"], p["file_ranked"], p["qrels"], p["file_qrels"], p["gold"],
            latency={st: limits.latency(latency.get(i, {}).get(st, np.zeros(0))) for st in entries[i]["stages"]},
            present=layout is not None, values_only=bool(about.get("values_only")))
    return BoardResults(BoardInputs(records, runs, codes), dict(index.get("settings") or {}),
                        frozenset(index.get("metrics") or ()))


__all__ = ["BoardResults", "FILES", "INDEX", "read_results", "read_settings", "write_results"]
