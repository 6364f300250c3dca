"""Collect every run record under ``runs/`` into one tidy table (one row per run)."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HEADLINE = ("recall@5", "recall@10", "mrr@10", "ndcg@10", "file_recall@10", "file_ndcg@10",
            "line_coverage@10")


def load_records(runs_dir: Path) -> list[dict]:
    """Every parseable record.json; duplicates of a config hash keep the newest."""
    newest: dict[str, dict] = {}
    for path in sorted(Path(runs_dir).glob("*/record.json")):
        try:
            rec = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        rec["_dir"] = str(path.parent)
        key = rec.get("config_hash", str(path))
        if key not in newest or rec.get("finished_at", "") >= newest[key].get("finished_at", ""):
            newest[key] = rec
    return sorted(newest.values(), key=lambda r: r.get("finished_at", ""))


def to_frame(records: list[dict]) -> pd.DataFrame:
    rows = []
    for r in records:
        row = {"run_dir": r["_dir"], "config_hash": r.get("config_hash"), "status": r.get("status"),
               "error": r.get("error"), "system": r.get("system"), "chunker": r.get("chunker"),
               "queryset": r.get("queryset"), "corpus": r.get("corpus"),
               "experiment": r.get("experiment"), "finished_at": r.get("finished_at")}
        for name, m in (r.get("metrics") or {}).items():
            row[name] = m["mean"]
            row[f"{name}_ci_low"] = m["ci_low"]
            row[f"{name}_ci_high"] = m["ci_high"]
        for stage, lat in (r.get("latency_ms") or {}).items():
            for p in ("p50", "p95", "p99"):
                if p in lat:
                    row[f"{stage}_{p}_ms"] = lat[p]
        idx = r.get("index") or {}
        row["build_s"] = idx.get("build_seconds_total")
        row["index_mb"] = round(sum((idx.get("bytes") or {}).values()) / 1e6, 3) if idx.get("bytes") else None
        row["chunks"] = (r.get("chunks") or {}).get("count")
        row["queries"] = (r.get("queryset_info") or {}).get("n")
        row["self_retrieval_share"] = (r.get("hygiene") or {}).get("self_retrieval_share")
        row["peak_rss_mb"] = r.get("peak_rss_mb")
        rows.append(row)
    return pd.DataFrame(rows)


def collect(runs_dir: Path) -> tuple[pd.DataFrame, list[dict]]:
    records = load_records(runs_dir)
    return to_frame(records), records
