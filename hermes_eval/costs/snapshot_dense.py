"""The dense row of the snapshot-set cost section (issue 54; bench ``snapshot_dense``, rendered under that
section): a dense arm over every snapshot of a set, with the set's one vector store
(``retrievers/dense/snapshot_legs.py``), against its embedding bound, all measured in one run.

Its set: ``HERMES_COSTS_SNAPSHOT_DENSE_SET`` = ``DATASETS/NAME``, else the section's
``HERMES_COSTS_SNAPSHOT_SET`` (a bench of its own, so a small set offline, e.g. ``datasets/mined-httpx``
from the mirrors, refreshes it without re-running the BM25 rows on theirs).

- ``shared``: exact search (MiniLM, definitions) on a cold cache. Its bound is what embedding alone needs:
  the distinct texts of the set (the store's rows) × the per-text encode time of this same arm (the
  embedder's encode seconds ÷ texts it computed). Its dense cost is the snapshots' build seconds summed
  (embedding what the store lacks, then the leg's build); the target is <= 1.3x the bound and <= 2 GB peak.
- ``shared, warm`` and ``per_snapshot`` (``+snapshot_dense=per_snapshot``, the path before the store), right
  after on the warm cache: the store reads each distinct text's vector from the embedding cache once; the
  path before reads all of a snapshot's texts from it every snapshot and builds its own index. All arms'
  run.trec must be the same (query, document, rank).
- The k-th snapshot's build seconds against the first, per range of k, for each arm.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from hermes_eval.costs.section import table_row

ENV = "HERMES_COSTS_SNAPSHOT_DENSE_SET"
ARM = ("exact", "functions")  # retriever, chunker: an exact leg over definitions
TARGET_RATIO, MAX_RSS_MB = 1.3, 2048


def _arm(qs_dir: Path, cache: Path, runs: Path, *extra: str) -> dict:
    retriever, chunker = ARM
    words = ["run", "queryset=imported", f"queryset.name={qs_dir.name}", "corpus=imported", f"retriever={retriever}",
             f"chunker={chunker}", f"paths.datasets={qs_dir.parent}", f"paths.cache={cache}", f"paths.runs={runs}",
             "progress=off", *extra]
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *words], capture_output=True, text=True)
    wall = round(time.perf_counter() - start, 2)
    if proc.returncode != 0 or "[failed]" in proc.stdout:
        raise RuntimeError(f"dense {' '.join(extra)}: {(proc.stdout + proc.stderr).strip()[-400:]}")
    [folder] = [p.parent for p in runs.glob("*/record.json")]
    rec = json.loads((folder / "record.json").read_text())
    trec = [tuple(line.split()[:4]) for line in (folder / "run.trec").read_text().splitlines()]
    return {"process_s": wall, "record": rec, "trec": trec}


def by_k(work: dict, bins) -> list[dict]:
    """Median build seconds of the k-th snapshot (build order), per range of k, and the first's."""
    import statistics

    rows = [w.get("build_seconds", 0.0) for w in sorted(work.values(), key=lambda w: w.get("position", 0))]
    out = []
    for lo, hi in bins:
        part = rows[lo - 1:hi]
        if part:
            out.append({"k": f"{lo}" if len(part) == 1 else f"{lo}-{lo + len(part) - 1}", "n": len(part),
                        "seconds": round(statistics.median(part), 4),
                        "x_first": round(statistics.median(part) / rows[0], 3) if rows[0] else None})
    return out


def run(cache: Path | None = None, qs_dir: Path | None = None) -> dict:
    """The bench: the set named by the environment (or ``qs_dir``), in a temporary folder."""
    import tempfile

    from hermes_eval.costs.snapshot_sets import BINS, ENV as SECTION_ENV

    given = os.environ.get(ENV) or os.environ.get(SECTION_ENV)
    qs_dir = qs_dir or (Path(given).resolve() if given else None)
    if qs_dir is None or not (qs_dir / "manifest.json").is_file():
        return {"skipped": f"needs {ENV} (or {SECTION_ENV})=DATASETS/NAME, an imported snapshot query set"}
    with tempfile.TemporaryDirectory(prefix="hermes-snapshot-dense-") as tmp:
        return measure(qs_dir, Path(tmp), BINS)


def measure(qs_dir: Path, tmp: Path, bins) -> dict:
    """The three arms on ``qs_dir`` under ``tmp``, and the row's numbers."""
    shared = _arm(qs_dir, tmp / "dense-cache", tmp / "dense-runs-shared")
    warm = _arm(qs_dir, tmp / "dense-cache", tmp / "dense-runs-shared-warm")
    before = _arm(qs_dir, tmp / "dense-cache", tmp / "dense-runs-per-snapshot", "+snapshot_dense=per_snapshot")
    rec = shared["record"]
    emb, store = rec["embeddings"], rec["embeddings"]["vector_store"]
    per_text = emb["encode_seconds"] / emb["computed"] if emb["computed"] else 0.0
    bound = store["rows"] * per_text
    cost = sum(w["build_seconds"] for w in rec["snapshot_work"].values())
    old_cost = sum(w["build_seconds"] for w in before["record"]["snapshot_work"].values())
    ratio = round(cost / bound, 2) if bound else None
    return {"queryset": qs_dir.name, "queries": rec["queryset_info"]["n"], "snapshots": len(rec["snapshot_work"]),
            "arm": "/".join(ARM), "distinct_texts": store["rows"], "store_mb": store["mb"],
            "mapped_blocks": store["mapped_blocks"], "computed": emb["computed"],
            "encode_s": round(emb["encode_seconds"], 2), "per_text_ms": round(per_text * 1000, 3),
            "bound_s": round(bound, 2), "dense_s": round(cost, 2), "ratio": ratio,
            "process_s": shared["process_s"], "peak_rss_mb": rec["peak_rss_mb"],
            "per_snapshot_dense_s": round(old_cost, 2), "per_snapshot_process_s": before["process_s"],
            "per_snapshot_peak_rss_mb": before["record"]["peak_rss_mb"],
            "warm_dense_s": round(sum(w["build_seconds"] for w in warm["record"]["snapshot_work"].values()), 2),
            "warm_process_s": warm["process_s"], "warm_peak_rss_mb": warm["record"]["peak_rss_mb"],
            "warm_by_k": by_k(warm["record"]["snapshot_work"], bins),
            "same_run_trec": shared["trec"] == before["trec"] == warm["trec"],
            "file_mrr": round(rec["metrics"]["file_mrr"]["mean"], 4), "by_k": by_k(rec["snapshot_work"], bins),
            "per_snapshot_by_k": by_k(before["record"]["snapshot_work"], bins),
            "target_ratio": TARGET_RATIO, "max_rss_mb": MAX_RSS_MB,
            "passed": ratio is not None and ratio <= TARGET_RATIO and rec["peak_rss_mb"] <= MAX_RSS_MB}


def markdown(d: dict | None) -> list[str]:
    """The dense row and its k-th-snapshot table, under the snapshot-set section."""
    if not d:
        return []
    if "error" in d or "skipped" in d:
        return ["", f"Dense row: {d.get('error') or 'skipped: ' + d['skipped']}"]
    lines = ["", f"Dense row ({d['queryset']}: {d['queries']} queries on {d['snapshots']} snapshots; {d['arm']}, MiniLM; one vector store for the set, exact search over each snapshot's rows; "
                 f"cold cache, then on the warm cache the same and the per-snapshot path of before, one run). Bound = distinct "
                 f"texts ({d['distinct_texts']:,}) × this arm's encode time per text ({d['per_text_ms']} ms: "
                 f"{d['encode_s']} s for {d['computed']:,} texts computed). Dense s = the snapshots' build seconds "
                 f"summed (embedding what the store lacks, building the leg). Same run.trec in all three arms: "
                 f"{'yes' if d['same_run_trec'] else '**no**'}.", "",
             table_row(["arm", "dense s", "bound s", "x bound", "process s", "peak RSS MB", "store MB", "target",
                        "result"]), table_row(["---"] * 9),
             table_row([f"dense {d['arm']} (shared store)", d["dense_s"], d["bound_s"], d["ratio"], d["process_s"],
                        d["peak_rss_mb"], d["store_mb"], f"<= {d['target_ratio']}x, <= {d['max_rss_mb']} MB",
                        "pass" if d["passed"] else "**miss**"]),
             table_row([f"dense {d['arm']} (shared store, warm cache)", d["warm_dense_s"], "", "",
                        d["warm_process_s"], d["warm_peak_rss_mb"], "", "", ""]),
             table_row([f"dense {d['arm']} (per snapshot as before, warm cache)", d["per_snapshot_dense_s"], "", "",
                        d["per_snapshot_process_s"], d["per_snapshot_peak_rss_mb"], "", "", ""]),
             "", "The k-th snapshot's dense build seconds against the first (median per range of k):", "",
             table_row(["k", "snapshots", "shared cold s", "x first", "shared warm s", "x first",
                        "per snapshot warm s", "x first"]), table_row(["---"] * 8)]
    for mine, warm, old in zip(d["by_k"], d["warm_by_k"], d["per_snapshot_by_k"]):
        lines.append(table_row([mine["k"], mine["n"], mine["seconds"], mine["x_first"], warm["seconds"],
                                warm["x_first"], old["seconds"], old["x_first"]]))
    return lines
