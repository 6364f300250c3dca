"""A snapshot set's cost (issue 46): our BM25 arms over a query set of many snapshots (one per query: a mined
history, Ye et al., Gandhi) against the minimal blob-cached BM25 (``snapshot_sets_reference.py``), in one run,
interleaved: each round runs the reference and every arm, each as its own process on a cold cache, the order
alternating between rounds. The time ratio is each round's own (arm over that round's reference); its median and
spread are reported, with each side's peak RSS, and the cost of a repository's k-th snapshot against its first
(build seconds and texts tokenized from the record's ``snapshot_work``; the reference's seconds and blobs read per
snapshot). The section's dense row is a bench of its own (``snapshot_dense.py``), rendered under it.

The query set is an imported snapshot set under a datasets folder: ``HERMES_COSTS_SNAPSHOT_SET`` =
``DATASETS/NAME`` (e.g. ``datasets import ye ... limit=200``); without it the section says so. Its names from
before "history" meant the board only (``HERMES_BENCH_HISTORY``, ``..._ROUNDS``) are read for one release.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hermes_eval.costs.section import stand_in, table_row

ARMS = (("bm25", "whole_file"), ("mteb_bm25", "whole_file"))
TARGET_RATIO, MAX_RSS_MB = 4.0, 2048
ENV, OLD_ENV = "HERMES_COSTS_SNAPSHOT_SET", "HERMES_BENCH_HISTORY"  # the old name read for one release
ROUNDS = int(os.environ.get(f"{ENV}_ROUNDS") or os.environ.get(f"{OLD_ENV}_ROUNDS") or "2")
BINS = ((1, 1), (2, 10), (11, 100), (101, 1000), (1001, 10**9))  # k-th snapshot ranges


def _reference(qs_dir: Path) -> dict:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.costs.snapshot_sets_reference", str(qs_dir)],
                          capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["process_s"] = round(time.perf_counter() - start, 2)
    return out


def _arm(qs_dir: Path, tmp: Path, retriever: str, chunker: str, tag: str) -> dict:
    runs = tmp / f"runs-{tag}"
    words = ["run", "queryset=imported", f"queryset.name={qs_dir.name}", "corpus=imported",
             f"retriever={retriever}", f"chunker={chunker}", f"paths.datasets={qs_dir.parent}",
             f"paths.cache={tmp / f'cache-{tag}'}", f"paths.runs={runs}", "progress=off"]
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *words], capture_output=True, text=True)
    wall = round(time.perf_counter() - start, 2)
    if proc.returncode != 0 or "[failed]" in proc.stdout:
        raise RuntimeError(f"{retriever}/{chunker}: {(proc.stdout + proc.stderr).strip()[-400:]}")
    [rec] = [json.loads(p.read_text()) for p in runs.glob("*/record.json")]
    return {"process_s": wall, "peak_rss_mb": rec["peak_rss_mb"],
            "file_mrr": round(rec["metrics"]["file_mrr"]["mean"], 4), "work": rec.get("snapshot_work") or {}}


def _bins(per_k: list[tuple[float, float]]) -> list[dict]:
    """(seconds, texts) of the k-th snapshot (1-based, build order) -> median per range of k."""
    out = []
    for lo, hi in BINS:
        part = per_k[lo - 1:hi]
        if part:
            out.append({"k": f"{lo}" if len(part) == 1 else f"{lo}-{lo + len(part) - 1}", "n": len(part),
                        "seconds": round(statistics.median(s for s, _ in part), 4),
                        "texts": statistics.median(t for _, t in part)})
    return out


def _ours_by_k(work: dict) -> list[tuple[float, float]]:
    rows = sorted(work.values(), key=lambda w: w.get("position", 0))
    return [(w.get("build_seconds", 0.0), sum((w.get("texts_tokenized") or {}).values())) for w in rows]


def run(cache: Path | None = None, qs_dir: Path | None = None, rounds: int = ROUNDS) -> dict:
    given = os.environ.get(ENV) or os.environ.get(OLD_ENV)
    qs_dir = qs_dir or (Path(given) if given else None)
    if qs_dir is None or not (qs_dir / "manifest.json").is_file():
        return {"skipped": f"needs {ENV}=DATASETS/NAME, an imported snapshot query set"}
    refs, arms = [], {f"{r}/{c}": [] for r, c in ARMS}
    with tempfile.TemporaryDirectory(prefix="hermes-snapshot-sets-") as tmp_name:
        tmp = Path(tmp_name)
        for i in range(rounds):
            steps = ["reference", *arms]
            for step in (steps if i % 2 == 0 else steps[::-1]):  # alternating order
                if step == "reference":
                    refs.append(_reference(qs_dir))
                else:
                    retriever, chunker = step.split("/")
                    arms[step].append(_arm(qs_dir, tmp, retriever, chunker, f"{i}-{retriever}"))
    rows = []
    for name, got in arms.items():
        ratios = [a["process_s"] / r["process_s"] for a, r in zip(got, refs)]
        rss = max(a["peak_rss_mb"] for a in got)
        ratio = round(statistics.median(ratios), 2)
        rows.append({"arm": name, "seconds": [a["process_s"] for a in got], "ratio": ratio,
                     "ratio_spread": [round(min(ratios), 2), round(max(ratios), 2)], "peak_rss_mb": rss,
                     "file_mrr": got[0]["file_mrr"], "by_k": _bins(_ours_by_k(got[0]["work"])),
                     "passed": ratio <= TARGET_RATIO and rss <= MAX_RSS_MB})
    ref_by_k = _bins([(s[3], s[2]) for s in refs[0]["per_snapshot"]])
    return {"queryset": qs_dir.name, "queries": refs[0]["queries"], "snapshots": refs[0]["snapshots"],
            "rounds": rounds, "reference_seconds": [r["process_s"] for r in refs],
            "reference_peak_rss_mb": max(r["peak_rss_mb"] for r in refs), "reference_file_mrr@100": refs[0]["file_mrr@100"],
            "reference_by_k": ref_by_k, "rows": rows, "target_ratio": TARGET_RATIO, "max_rss_mb": MAX_RSS_MB,
            "passed": all(r["passed"] for r in rows)}


def markdown(r: dict | None) -> list[str]:
    """The section for reports/costs.md."""
    head = stand_in("Snapshot set cost", r)
    if head is not None:
        return head
    lines = ["", f"## Snapshot set cost ({r['queryset']}: {r['queries']} queries on {r['snapshots']} snapshots; "
                 f"{r['rounds']} interleaved rounds, alternating order, each side a process on a cold cache)", "",
             f"Reference (`hermes_eval/costs/snapshot_sets_reference.py`: git ls-tree, blobs read and tokenized once by "
             f"blob id, rank-bm25 BM25Okapi per snapshot, top 100): {' s, '.join(map(str, r['reference_seconds']))} s, "
             f"peak RSS {r['reference_peak_rss_mb']} MB, file MRR@100 {r['reference_file_mrr@100']}.", "",
             table_row(["arm", "seconds per round", "x reference (median)", "spread", "target", "peak RSS MB", "file MRR",
                   "result"]), table_row(["---"] * 8)]
    for a in r["rows"]:
        lines.append(table_row([a["arm"], ", ".join(map(str, a["seconds"])), a["ratio"], "–".join(map(str, a["ratio_spread"])),
                           f"<= {r['target_ratio']}x, <= {r['max_rss_mb']} MB", a["peak_rss_mb"], a["file_mrr"],
                           "pass" if a["passed"] else "**miss**"]))
    lines += ["", "The k-th snapshot against the first (build order; median per range of k): ours = index build "
                  "seconds and texts tokenized (record `snapshot_work`), reference = seconds (list, read, tokenize, "
                  "build, search) and blobs read.", "",
              table_row(["k", "snapshots", *[f"{a['arm']} build s" for a in r["rows"]],
                    *[f"{a['arm']} texts tokenized" for a in r["rows"]], "reference s", "reference blobs read"]),
              table_row(["---"] * (4 + 2 * len(r["rows"])))]
    for j, ref in enumerate(r["reference_by_k"]):
        ours = [a["by_k"][j] if j < len(a["by_k"]) else {} for a in r["rows"]]
        lines.append(table_row([ref["k"], ref["n"], *[o.get("seconds", "") for o in ours],
                           *[o.get("texts", "") for o in ours], ref["seconds"], ref["texts"]]))
    return lines
