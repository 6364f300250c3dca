"""SWE-bench at full size, what it costs: our BM25 arms over every mirrored Lite instance against the
minimal reference (``snapshot_reference.py``), measured in one run, reference before and after ours.

Needs the mirrors (``HERMES_MIRRORS``, default ``.cache/mirrors``) and the instances
(``HERMES_BENCH_DATA``/swe-bench/lite.json); without them the bench says so and measures nothing.
Each arm runs as its own ``hermes-eval run`` process on a cold cache, then again on the warm cache
(``rerun=true``), then once more as a resumed sweep would (its record found, nothing run). The
record's per-snapshot report gives the cost of a repository's k-th snapshot against its first.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hermes_eval.costs.section import stand_in, table_row

ARMS = (("bm25", "whole_file"), ("mteb_bm25", "whole_file"), ("bm25", "functions"), ("mteb_bm25", "functions"))
# our arm's time over the reference's, and its peak RSS (issue 31: 2 GB at file level; none set for functions)
TARGETS = {"whole_file": 4.0, "functions": 10.0}
MAX_RSS_MB = 2048
RSS_TARGETS = {"whole_file": MAX_RSS_MB, "functions": None}
BOARD_COLD_S, BOARD_WARM_S = 600, 120  # the whole BM25 Lite board cold, and a warm re-run of it (issue 31)


def _cli(*words: str) -> list[str]:
    return [sys.executable, "-m", "hermes_eval.cli.main", *words]


def _reference(instances: Path, mirrors: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.costs.snapshot_reference", str(instances),
                           str(mirrors)], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_arm(tmp: Path, retriever: str, chunker: str, *extra: str) -> dict:
    words = ["run", "queryset=imported", "queryset.name=bench-swe", "corpus=imported", f"retriever={retriever}",
             f"chunker={chunker}", f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}",
             f"paths.runs={tmp / 'runs'}", "progress=off", *extra]
    start = time.perf_counter()
    proc = subprocess.run(_cli(*words), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0 or "[failed]" in proc.stdout:
        raise RuntimeError(f"{retriever}/{chunker}: {(proc.stdout + proc.stderr).strip()[-400:]}")
    [record] = [json.loads(p.read_text()) for p in (tmp / "runs").glob(f"*-{chunker}-*/record.json")
                if json.loads(p.read_text())["config"]["retriever"]["name"] == retriever]
    return {"wall_s": round(wall, 1), "record": record}


def _sweep(tmp: Path, cache: Path, runs: Path, *extra: str) -> dict:
    """The four arms as one ``hermes-eval sweep`` (as a user re-runs the board): wall time, each arm's
    time, peak RSS and file nDCG@10 from its record."""
    retrievers, chunkers = (",".join(dict.fromkeys(part)) for part in zip(*ARMS))
    words = ["sweep", "queryset=imported", "queryset.name=bench-swe", "corpus=imported",
             f"chunker={chunkers}", f"retriever={retrievers}",
             f"paths.datasets={tmp / 'ds'}", f"paths.cache={cache}", f"paths.runs={runs}", "progress=off", *extra]
    start = time.perf_counter()
    proc = subprocess.run(_cli(*words), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0 or f"{len(ARMS)} ok" not in proc.stdout:
        raise RuntimeError(f"board sweep {' '.join(extra)}: {(proc.stdout + proc.stderr).strip()[-400:]}")
    arms = {}
    for path in runs.glob("*/record.json"):
        rec = json.loads(path.read_text())
        arms[f"{rec['config']['retriever']['name']}/{rec['chunker']}"] = {
            "wall_s": rec["wall_seconds"], "peak_rss_mb": rec["peak_rss_mb"],
            "file_ndcg@10": round(rec["metrics"]["file_ndcg@10"]["mean"], 4)}
    return {"wall_s": round(wall, 1), "arms": arms, "peak_rss_mb": max(a["peak_rss_mb"] for a in arms.values())}


def _kth_snapshot(record: dict) -> dict:
    """Per repository, build seconds and texts tokenized of its first snapshot against the later ones. The
    first is the one built first (``position``; record keys are sorted, not in build order); a record
    from before ``position`` was kept names the snapshot that reused no file."""
    work = record.get("snapshot_work") or {}
    by_repo: dict[str, list[tuple[dict, dict]]] = {}
    for scope, row in (record.get("snapshots") or {}).items():
        by_repo.setdefault(scope.split("@")[0], []).append((row, work.get(scope) or {}))
    out = {}
    for repo, rows in sorted(by_repo.items()):
        if len(rows) < 2:
            continue
        rows.sort(key=lambda rw: rw[1].get("position", 0 if not rw[0].get("files_reused") else 1))
        later = rows[1:]
        tok = lambda w: sum((w.get("texts_tokenized") or {}).values())  # noqa: E731
        out[repo] = {"snapshots": len(rows), "first_build_s": rows[0][1].get("build_seconds"),
                     "later_build_s_median": round(statistics.median(w.get("build_seconds", 0) for _, w in later), 3),
                     "first_texts_tokenized": tok(rows[0][1]),
                     "later_texts_tokenized_median": statistics.median(tok(w) for _, w in later),
                     "later_files_reused_share": round(sum(r.get("files_reused", 0) for r, _ in later)
                                                       / max(1, sum(r.get("files", 0) for r, _ in later)), 3)}
    return out


def inputs() -> tuple[Path, Path]:
    """Lite's instances (``HERMES_BENCH_DATA``) and the mirrors folder (``HERMES_MIRRORS``)."""
    data = Path(os.environ.get("HERMES_BENCH_DATA", "../shared/benchmarks"))
    return data / "swe-bench" / "lite.json", Path(os.environ.get("HERMES_MIRRORS", ".cache/mirrors"))


def missing(instances: Path, mirrors: Path) -> dict | None:
    """The bench's result when its inputs are not here, else None."""
    if not instances.is_file() or not mirrors.is_dir():
        return {"skipped": f"needs {instances} and the mirrors under {mirrors} (HERMES_MIRRORS)"}
    return None


def import_lite(tmp: Path, instances: Path, mirrors: Path) -> float:
    """Import the mirrored Lite instances as query set ``bench-swe`` under ``tmp``; its seconds."""
    start = time.perf_counter()
    subprocess.run(_cli("datasets", "import", "swebench", str(instances), "--repos", str(mirrors),
                        "name=bench-swe", f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"),
                   capture_output=True, text=True, check=True)
    return round(time.perf_counter() - start, 1)


def run(cache: Path) -> dict:
    instances, mirrors = inputs()
    if (skipped := missing(instances, mirrors)) is not None:
        return skipped
    with tempfile.TemporaryDirectory(prefix="hermes-swecost-") as tmp_name:
        tmp = Path(tmp_name)
        import_s = import_lite(tmp, instances, mirrors)
        refs = [_reference(instances, mirrors)]
        rows = []
        for retriever, chunker in ARMS:
            cold = run_arm(tmp, retriever, chunker)
            warm = run_arm(tmp, retriever, chunker, "rerun=true")
            resumed = run_arm(tmp, retriever, chunker)
            rec = cold["record"]
            rows.append({"arm": f"{retriever}/{chunker}", "cold_s": cold["wall_s"], "warm_s": warm["wall_s"],
                         "resumed_s": resumed["wall_s"], "peak_rss_mb": rec["peak_rss_mb"],
                         "warm_peak_rss_mb": warm["record"]["peak_rss_mb"], "chunks": rec["chunks"]["count"],
                         "file_ndcg@10": round(rec["metrics"]["file_ndcg@10"]["mean"], 4),
                         "kth_snapshot": _kth_snapshot(rec)})
        # the whole board as one sweep: warm (rerun) in one process and on every core; then cold on every core
        sweeps = {"warm, one process (n_jobs=1)": _sweep(tmp, tmp / "cache", tmp / "sweep1", "rerun=true",
                                                          "hydra.launcher.n_jobs=1"),
                  "warm, one worker per core": _sweep(tmp, tmp / "cache", tmp / "sweep2", "rerun=true"),
                  "cold, one worker per core": _sweep(tmp, tmp / "cache-cold", tmp / "sweep3")}
        refs.append(_reference(instances, mirrors))
        for sweep in sweeps.values():  # the same measurement as the arms run alone
            sweep["same_ndcg"] = all(sweep["arms"][row["arm"]]["file_ndcg@10"] == row["file_ndcg@10"] for row in rows)
        cache_mb = round(sum(p.stat().st_size for p in (tmp / "cache").rglob("*") if p.is_file()) / 2**20, 1)
        for runs in ("runs", "sweep1", "sweep2", "sweep3"):
            shutil.rmtree(tmp / runs, ignore_errors=True)
    ref_s = statistics.mean(r["wall_s"] for r in refs)
    for row in rows:
        target = TARGETS[row["arm"].split("/")[1]]
        row["ratio"] = round(row["cold_s"] / ref_s, 2)
        row["target_ratio"] = target
        row["target_rss_mb"] = rss = RSS_TARGETS[row["arm"].split("/")[1]]
        row["passed"] = row["ratio"] <= target and (rss is None or row["peak_rss_mb"] <= rss)
    return {"instances": refs[0]["instances"], "import_s": import_s, "reference": refs,
            "reference_spread_s": [r["wall_s"] for r in refs], "reference_ndcg@10": refs[0]["ndcg@10"],
            "rows": rows, "cache_mb": cache_mb, "max_rss_mb": MAX_RSS_MB,
            "bm25_board_cold_s": round(sum(r["cold_s"] for r in rows), 1),
            "bm25_board_warm_s": round(sum(r["warm_s"] for r in rows), 1),
            "bm25_board_resumed_s": round(sum(r["resumed_s"] for r in rows), 1),
            "board_sweeps": sweeps, "board_warm_target_s": BOARD_WARM_S, "board_cold_target_s": BOARD_COLD_S,
            "passed": all(r["passed"] for r in rows)}


def markdown(r: dict | None) -> list[str]:
    """The cost table for reports/costs.md."""
    if (lines := stand_in("SWE-bench Lite cost", r)) is not None:
        return lines
    refs = r["reference"]
    lines = ["", f"## SWE-bench Lite cost ({r['instances']} mirrored instances, each in its own snapshot; one run)", "",
             f"Reference (`hermes_eval/costs/snapshot_reference.py`: git ls-tree + cat-file, each .py blob "
             f"tokenized once, BM25 Okapi over whole .py files): {' s, '.join(str(x) for x in r['reference_spread_s'])} s "
             f"(before and after our arms), peak RSS {refs[0]['peak_rss_mb']} MB, file nDCG@10 "
             f"{r['reference_ndcg@10']}. Import of the query set: {r['import_s']} s.", "",
             table_row(["arm", "cold s", "x reference", "target", "warm s (rerun)", "resumed s",
                        "peak RSS MB cold / warm", "chunks", "file nDCG@10", "result"]), table_row(["---"] * 10)]
    for a in r["rows"]:
        rss = a.get("target_rss_mb", r["max_rss_mb"])
        target = f"<= {a['target_ratio']}x" + (f", <= {rss} MB" if rss else "")
        lines.append(table_row([a["arm"], a["cold_s"], a["ratio"], target, a["warm_s"], a["resumed_s"],
                                f"{a['peak_rss_mb']} / {a['warm_peak_rss_mb']}", a["chunks"], a["file_ndcg@10"],
                                "pass" if a["passed"] else "**miss**"]))
    lines += ["", f"The whole BM25 part of the Lite board: {r['bm25_board_cold_s']} s cold, {r['bm25_board_warm_s']} s "
                  f"warm (rerun), {r['bm25_board_resumed_s']} s resumed; cache on disk {r['cache_mb']} MB.", "",
              *_sweep_lines(r),
              "A repository's k-th snapshot against its first (code BM25, whole files): build seconds and "
              "texts tokenized (median over the later snapshots), share of files reused.", "",
              table_row(["repository", "snapshots", "first build s", "later build s", "first texts tokenized",
                         "later texts tokenized", "later files reused"]), table_row(["---"] * 7)]
    for repo, k in r["rows"][0]["kth_snapshot"].items():
        lines.append(table_row([repo, k["snapshots"], k["first_build_s"], k["later_build_s_median"],
                                k["first_texts_tokenized"], k["later_texts_tokenized_median"],
                                k["later_files_reused_share"]]))
    return lines


def _sweep_lines(r: dict) -> list[str]:
    """The board as one sweep: wall time against its target, each arm's time inside it."""
    sweeps = r.get("board_sweeps")
    if not sweeps:
        return []
    arms = [f"{retriever}/{chunker}" for retriever, chunker in ARMS]
    lines = ["The same four arms as one `hermes-eval sweep` (the board as a user re-runs it; arms of one "
             "chunking follow each other in one process and share its corpus and chunks):", "",
             table_row(["sweep", "wall s", "target s", "result", *[f"{a} s" for a in arms],
                        "largest arm peak RSS MB", "same file nDCG@10 as alone"]), table_row(["---"] * (6 + len(arms)))]
    for name, sw in sweeps.items():
        target = r["board_cold_target_s"] if name.startswith("cold") else r["board_warm_target_s"]
        lines.append(table_row([name, sw["wall_s"], target, "pass" if sw["wall_s"] <= target else "**miss**",
                                *[sw["arms"][a]["wall_s"] for a in arms], sw["peak_rss_mb"],
                                "yes" if sw.get("same_ndcg") else "**no**"]))
    return lines + [""]
