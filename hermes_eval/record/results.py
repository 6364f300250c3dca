"""Collect every run record under ``runs/`` (at any depth) into one tidy table (one row per run).

Failed runs stay in the table with their error; a directory whose record is unreadable, whose run
files no longer match their record's checksums, or whose record is missing is listed with
``status`` ``unreadable``, ``damaged``, ``running`` (its writer holds the lock) or ``incomplete``,
never dropped (:data:`NOT_READABLE`). Records sharing a
config hash keep the newest (by ``finished_at``, then file time)."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from hermes_eval.record.checksums import damage
from hermes_eval.record.run_lock import is_locked, read_holder

RECORD = "record.json"
NOT_READABLE = ("unreadable", "damaged", "incomplete")  # a run folder whose numbers cannot be used
ARTIFACTS = ("per_query.parquet", "run.trec")  # written before the record: alone, the run is incomplete
PERCENTILES = ("p50", "p90", "p95", "p99")
HYGIENE_PREFIX = "hygiene_"


def read_record(path: Path) -> dict:
    """A record, or a stand-in failure record naming what is wrong with it."""
    run_dir = path.parent
    if not path.exists():
        if is_locked(run_dir):
            holder = read_holder(run_dir)
            who = holder.describe() if holder else "another process"
            return {"status": "running", "error": f"no {RECORD} yet: {who} is computing it",
                    "config_hash": f"running:{run_dir.name}", "finished_at": ""}
        return {"status": "incomplete", "error": f"no {RECORD} (its run was killed; run the sweep again)",
                "config_hash": f"incomplete:{run_dir.name}", "finished_at": ""}
    try:
        rec = json.loads(path.read_text())
        if not isinstance(rec, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as exc:
        return {"status": "unreadable", "error": f"{RECORD} unreadable ({type(exc).__name__}: {exc}); run the "
                "sweep again to redo it", "config_hash": f"unreadable:{run_dir.name}", "finished_at": ""}
    problem = damage(run_dir, rec)
    if problem is not None:
        return dict(rec, status="damaged", error=f"{problem}; run the sweep again to redo it")
    return rec


def run_dirs(runs_dir: Path) -> list[Path]:
    """Directories (at any depth) holding a record or the files a run writes before its record. A run linked
    into the folder (a symlink to a run directory elsewhere, how a few runs are gathered for a merge) counts:
    ``rglob`` does not follow links, so each entry of the folder is searched from itself."""
    root = Path(runs_dir)
    if not root.is_dir():
        return []
    tops = [root / name for name in (RECORD, *ARTIFACTS)]
    found = {p.parent for p in tops if p.is_file()}
    for entry in root.iterdir():
        if entry.is_dir():
            found |= {p.parent for name in (RECORD, *ARTIFACTS) for p in entry.rglob(name)}
    return sorted(found)


def load_records(runs_dir: Path) -> list[dict]:
    """Every run directory's record; duplicates of a config hash keep the newest."""
    newest: dict[str, tuple[tuple, dict]] = {}
    for run_dir in run_dirs(runs_dir):
        path = run_dir / RECORD
        rec = read_record(path)
        rec["_dir"] = str(run_dir)
        mtime = path.stat().st_mtime if path.exists() else run_dir.stat().st_mtime
        key = str(rec.get("config_hash") or run_dir.name)
        order = (str(rec.get("finished_at") or ""), mtime)
        if key not in newest or order >= newest[key][0]:
            newest[key] = (order, rec)
    return [rec for _, rec in sorted(newest.values(), key=lambda x: x[0])]


def _flat_config(cfg: dict | None) -> dict:
    """A few config values readers filter on."""
    cfg = cfg or {}
    fusion = cfg.get("fusion") or {}
    return {"dense_weight": fusion.get("dense_weight"), "fusion": fusion.get("name"),
            "retriever": (cfg.get("retriever") or {}).get("name"),
            "embedder": (cfg.get("embedder") or {}).get("name")}


def to_row(r: dict) -> dict:
    """One tidy row: identity, status, metrics with CIs, latency percentiles, costs, hygiene."""
    run_dir = Path(r["_dir"])
    row = {"run_dir": str(run_dir), "run_name": run_dir.name, "config_hash": r.get("config_hash"),
           "status": r.get("status"), "error": r.get("error"), "system": r.get("system"),
           "chunker": r.get("chunker"), "queryset": r.get("queryset"), "corpus": r.get("corpus"),
           "experiment": r.get("experiment"), "finished_at": r.get("finished_at"),
           "seed": r.get("seed"), "git_commit": r.get("git_commit"),
           "legs": ",".join(r.get("legs") or []) or None,
           "warnings": " | ".join(r.get("warnings") or []) or None}
    row.update(_flat_config(r.get("config")))
    for name, m in (r.get("metrics") or {}).items():
        row[name] = m.get("mean")
        row[f"{name}_ci_low"] = m.get("ci_low")
        row[f"{name}_ci_high"] = m.get("ci_high")
    for stage, lat in (r.get("latency_ms") or {}).items():
        for p in PERCENTILES:
            if p in lat:
                row[f"{stage}_{p}_ms"] = lat[p]
    idx = r.get("index") or {}
    row["build_s"] = idx.get("build_seconds_total")
    row["index_mb"] = round(sum((idx.get("bytes") or {}).values()) / 1e6, 3) if idx.get("bytes") else None
    row["chunks"] = (r.get("chunks") or {}).get("count")
    cut = (r.get("chunks") or {}).get("header_removed")
    if cut:  # a chunker's shared-header cut (retrievers/leg_text.py): files and tokens the embedder did not read
        row["header_cut_files"], row["header_cut_tokens"] = cut.get("files"), cut.get("tokens")
    row["queries"] = (r.get("queryset_info") or {}).get("n")
    row["peak_rss_mb"] = r.get("peak_rss_mb")
    emb = r.get("embeddings") or {}
    row["texts_per_s"] = emb.get("texts_per_s")
    row["model_mb"] = round(emb["model_bytes"] / 1e6, 1) if emb.get("model_bytes") else None
    row["wall_seconds"] = r.get("wall_seconds")
    for key, value in (r.get("hygiene") or {}).items():
        if not isinstance(value, (dict, list)):  # counts and shares; the named queries stay in the record
            row[f"{HYGIENE_PREFIX}{key}"] = value
    row["self_retrieval_share"] = (r.get("hygiene") or {}).get("self_retrieval_share")
    row["leak_warn"] = ((r.get("config") or {}).get("hygiene") or {}).get("self_retrieval_warn")
    return row


def to_frame(records: list[dict]) -> pd.DataFrame:
    """The tidy table: one row per run, newest last."""
    return pd.DataFrame([to_row(r) for r in records])


def collect(runs_dir: Path) -> tuple[pd.DataFrame, list[dict]]:
    """(table, records) for every run under ``runs_dir``."""
    records = load_records(runs_dir)
    return to_frame(records), records


def unusable_runs(records: list[dict]) -> list[str]:
    """``FOLDER (reason)`` for each run whose numbers cannot be read (:data:`NOT_READABLE`) or are not
    written yet (``running``): what every reader of a runs folder names instead of dropping it."""
    return [f"{r['_dir']} ({r['status']}: {r.get('error')})" for r in records
            if r.get("status") in (*NOT_READABLE, "running")]


def unusable_line(records: list[dict]) -> str | None:
    """``1 run unreadable: FOLDER (reason)``, or None when every run is readable."""
    found = unusable_runs(records)
    if not found:
        return None
    return f"{len(found)} run{'s' if len(found) != 1 else ''} unreadable: " + "; ".join(found)
