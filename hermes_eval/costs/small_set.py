"""A small run's fixed cost (issue 55): whole-file BM25 on query sets mined from repositories no test names,
each run beside the minimal blob-cached reference (``snapshot_sets_reference.py``) and beside the harness's own
start-up (``hermes-eval --help``), interleaved in one bench run: every round runs the three for each set,
each as its own process on a cold cache, the order alternating between rounds. Each round's ratio is its
own (ours over that round's reference); the median and spread are reported, with each side's peak RSS
(``wait4``'s, the process and what it waited for) and ours above the start-up. A fourth process in the same
rounds, the import floor, only imports the libraries a BM25 run cannot do without (:data:`FLOOR`: its
config, arrays, the query set's parquet, the BM25 library): what of ours no change inside hermes-eval can
remove, set beside the reference's whole run. A fifth, the own work, runs the set twice in one process and
times the second (``warm_work.py``): floor plus own work over the reference bounds from below what any
change to our start-up and imports can reach.

The sets are mined (not timed) from git mirrors under ``HERMES_MIRRORS`` (default ``.cache/mirrors``,
``OWNER+NAME/repo``); a set whose mirror is missing is reported as skipped.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.costs import warm_work
from hermes_eval.costs.section import stand_in, table_row

ROUNDS = int(os.environ.get("HERMES_BENCH_SMALL_ROUNDS", "3"))
TARGET_RATIO, ABOVE_STARTUP_S = 1.5, 1.0
FLOOR = ("omegaconf", "numpy", "pyarrow.parquet", "rank_bm25")  # imported by any BM25 run of ours


@dataclass(frozen=True)
class SmallSet:
    name: str
    mirror: str  # OWNER+NAME under HERMES_MIRRORS
    limit: int | None  # the newest N commits kept; None: the whole history


SETS = (SmallSet("cachetools-7", "tkem+cachetools", 7), SmallSet("tenacity-30", "jd+tenacity", 30),
        SmallSet("cachetools-all", "tkem+cachetools", None), SmallSet("tenacity-all", "jd+tenacity", None))


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MB, stdout) of one process run to its end (``wait4``: its own peak)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout = out.read()
        if proc.returncode:
            raise RuntimeError(f"{' '.join(argv[2:5])}: exit {proc.returncode}: {(stdout + err.read()).strip()[-400:]}")
    return round(wall, 3), round(usage.ru_maxrss / 1024, 1), stdout


def _mine(s: SmallSet, mirror: Path, datasets: Path) -> None:
    words = [sys.executable, "-m", "hermes_eval.cli.main", "datasets", "mine", str(mirror), f"name={s.name}",
             f"paths.datasets={datasets}", *([f"limit={s.limit}"] if s.limit else [])]
    subprocess.run(words, check=True, capture_output=True, text=True)


def _ours(s: SmallSet, datasets: Path, tmp: Path, tag: str) -> tuple[float, float, dict]:
    runs = tmp / f"runs-{tag}"
    wall, rss, _ = timed([sys.executable, "-m", "hermes_eval.cli.main", "run",
                          *warm_work.overrides(s.name, datasets, tmp / f"cache-{tag}", runs)])
    [rec] = [json.loads(p.read_text()) for p in runs.glob("*/record.json")]
    return wall, rss, rec


def _reference(s: SmallSet, datasets: Path) -> tuple[float, float, dict]:
    wall, rss, out = timed([sys.executable, "-m", "hermes_eval.costs.snapshot_sets_reference", str(datasets / s.name)])
    return wall, rss, json.loads(out.strip().splitlines()[-1])


def _warm(s: SmallSet, datasets: Path, tmp: Path, tag: str) -> float:
    """The run's own work: its second run in one process (``warm_work.py``)."""
    _, _, out = timed([sys.executable, "-m", "hermes_eval.costs.warm_work", str(datasets), s.name, str(tmp / tag)])
    return json.loads(out.strip().splitlines()[-1])["warm_s"]


def _startup() -> tuple[float, float]:
    wall, rss, _ = timed([sys.executable, "-m", "hermes_eval.cli.main", "--help"])
    return wall, rss


def _floor() -> tuple[float, float]:
    wall, rss, _ = timed([sys.executable, "-c", f"import {', '.join(FLOOR)}"])
    return wall, rss


def run(cache: Path | None = None, rounds: int = ROUNDS, sets: tuple[SmallSet, ...] = SETS) -> dict:
    mirrors = Path(os.environ.get("HERMES_MIRRORS", ".cache/mirrors"))
    present = [s for s in sets if (mirrors / s.mirror / "repo").exists()]
    if not present:
        return {"skipped": f"no mirror of {', '.join(sorted({s.mirror for s in sets}))} under {mirrors} "
                           "(HERMES_MIRRORS)"}
    rows = []
    with tempfile.TemporaryDirectory(prefix="hermes-small-") as tmp_name:
        tmp, datasets = Path(tmp_name), Path(tmp_name) / "datasets"
        for s in present:
            _mine(s, mirrors / s.mirror / "repo", datasets)
        got: dict[str, dict[str, list]] = {s.name: {"ours": [], "reference": [], "startup": [], "floor": [],
                                                    "warm": []} for s in present}
        for i in range(rounds):
            for s in (present if i % 2 == 0 else present[::-1]):
                steps = ("reference", "ours", "startup", "floor", "warm")
                for step in (steps if i % 2 == 0 else steps[::-1]):  # alternating order
                    if step == "ours":
                        got[s.name]["ours"].append(_ours(s, datasets, tmp, f"{s.name}-{i}"))
                    elif step == "reference":
                        got[s.name]["reference"].append(_reference(s, datasets))
                    elif step == "floor":
                        got[s.name]["floor"].append(_floor())
                    elif step == "warm":
                        got[s.name]["warm"].append(_warm(s, datasets, tmp, f"warm-{s.name}-{i}"))
                    else:
                        got[s.name]["startup"].append(_startup())
        for s in present:
            g = got[s.name]
            ratios = [o[0] / r[0] for o, r in zip(g["ours"], g["reference"])]
            above = [o[0] - st[0] for o, st in zip(g["ours"], g["startup"])]
            rec, ref = g["ours"][0][2], g["reference"][0][2]
            ratio = round(statistics.median(ratios), 2)
            floor = statistics.median(f[0] / r[0] for f, r in zip(g["floor"], g["reference"]))
            bound = statistics.median((f[0] + w) / r[0] for f, w, r in zip(g["floor"], g["warm"], g["reference"]))
            row = {"set": s.name, "queries": ref["queries"],
                   "snapshots": ref["snapshots"], "ours_s": [o[0] for o in g["ours"]],
                   "reference_s": [r[0] for r in g["reference"]], "startup_s": [st[0] for st in g["startup"]],
                   "floor_s": [f[0] for f in g["floor"]],
                   "floor_over_reference": round(floor, 2), "warm_s": g["warm"],
                   "floor_and_work_over_reference": round(bound, 2),
                   "ratio": ratio, "ratio_spread": [round(min(ratios), 2), round(max(ratios), 2)],
                   "above_startup_s": round(statistics.median(above), 2),
                   "ours_peak_rss_mb": max(o[1] for o in g["ours"]), "reference_peak_rss_mb": max(r[1] for r in g["reference"]),
                   "file_mrr": round(rec["metrics"]["file_mrr"]["mean"], 4), "reference_file_mrr@100": ref["file_mrr@100"]}
            row["passed"] = ratio <= TARGET_RATIO
            rows.append(row)
    smallest = min(rows, key=lambda r: r["queries"])
    return {"rounds": rounds, "mirrors": sorted({s.mirror for s in present}),
            "skipped_sets": [s.name for s in sets if s not in present], "rows": rows,
            "target_ratio": TARGET_RATIO, "above_startup_target_s": ABOVE_STARTUP_S,
            "smallest_above_startup_passed": smallest["above_startup_s"] <= ABOVE_STARTUP_S,
            "passed": all(r["passed"] for r in rows)}


def markdown(r: dict | None) -> list[str]:
    """The section for reports/costs.md."""
    head = stand_in("Small sets", r)
    if head is not None:
        return head
    lines = ["", f"## Small sets (whole-file BM25 on sets mined from {', '.join(r['mirrors'])}; {r['rounds']} "
                 "interleaved rounds, alternating order, each side a process on a cold cache)", "",
             "Reference: `hermes_eval/costs/snapshot_sets_reference.py` (git ls-tree, blobs read and tokenized once by "
             "blob id, rank-bm25 BM25Okapi per snapshot, top 100; no masking, hygiene, judging or records; it imports "
             "numpy, rank-bm25 and pyarrow to read the query set, and none of the harness: until issue 55's last "
             "change it ran `hermes_eval/__init__.py`, whose OmegaConf and API imports were a quarter of its time). "
             "Start-up: `hermes-eval --help` in the same rounds. Import floor: a process importing only "
             f"{', '.join(f'`{m}`' for m in FLOOR)} (what any BM25 run of ours imports), in the same rounds. "
             "Own work: the same run a second time in one process, imports warm (`costs/warm_work.py`), in the "
             "same rounds; import floor plus own work over the reference is what a run costs with no start-up "
             "or import overhead of ours at all, so a row whose bound is above the target cannot meet it. "
             "Cold means the run's own cache (`paths.cache`, a fresh folder per run); composed configs and the parts' "
             "probe digests are kept between processes as bytecode is (`config/compose_cache.py`, "
             "`retrievers/identity/probe_memo.py`, keyed by the config files and code, not the data), so the first "
             "run of a bench composes and probes and the others read them back.", "",
             table_row(["set", "queries", "snapshots", "ours s", "reference s", "x reference (median)", "spread",
                   "ours above start-up s", "import floor s", "floor x reference", "own work s (warm)",
                   "(floor + work) x reference", "peak RSS MB ours / reference",
                   "file MRR ours / reference", f"<= {r['target_ratio']}x"]), table_row(["---"] * 15)]
    for a in r["rows"]:
        lines.append(table_row([a["set"], a["queries"], a["snapshots"], ", ".join(map(str, a["ours_s"])),
                           ", ".join(map(str, a["reference_s"])), a["ratio"], "–".join(map(str, a["ratio_spread"])),
                           a["above_startup_s"], ", ".join(map(str, a.get("floor_s", []))) or "-",
                           a.get("floor_over_reference", "-"), ", ".join(map(str, a.get("warm_s", []))) or "-",
                           a.get("floor_and_work_over_reference", "-"),
                           f"{a['ours_peak_rss_mb']} / {a['reference_peak_rss_mb']}",
                           f"{a['file_mrr']} / {a['reference_file_mrr@100']}", "pass" if a["passed"] else "**miss**"]))
    lines += ["", f"Smallest set above start-up: {'pass' if r['smallest_above_startup_passed'] else '**miss**'} "
                  f"(target <= {r['above_startup_target_s']} s)."]
    if r.get("skipped_sets"):
        lines.append(f"Skipped (no mirror): {', '.join(r['skipped_sets'])}.")
    return lines
