"""Run the cost measures (``hermes-eval costs``) and write reports/costs.json and reports/costs.md."""
from __future__ import annotations

import json
import logging
import platform
import time
from pathlib import Path
from typing import Callable

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.costs.section import table_row
from hermes_eval.record.manifest import machine, versions

BENCHES: dict[str, Callable[[Path], dict]] = {}
RENAMED = {"history_cost": "snapshot_sets"}  # old name -> new, accepted (and read from older json) for one release
log = logging.getLogger(__name__)


def _register() -> None:
    from hermes_eval.costs import (boards_build, embedder_costs, embedding, metrics_speed, overhead,
                                   reuse, scaling, small_set, snapshot_dense, snapshot_sets, swebench_cost,
                                   swebench_dense_cost)

    BENCHES.update({"sweep_reuse": lambda c: reuse.run(), "harness_overhead": overhead.run,
                    "embedding_throughput": embedding.run, "scaling": scaling.run,
                    "metrics_speed": lambda c: metrics_speed.run(), "embedders": embedder_costs.run,
                    "swebench_cost": swebench_cost.run, "swebench_dense_cost": swebench_dense_cost.run,
                    "snapshot_sets": snapshot_sets.run, "snapshot_dense": snapshot_dense.run,
                    "small_set": small_set.run,
                    "boards_build": lambda c: boards_build.run()})


def run_benches(out_dir: Path, cache: Path, only: list[str] | None = None) -> dict:
    _register()
    results: dict = {"machine": dict(machine(), python=platform.python_version()), "versions": versions(),
                     "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "benches": {}}
    previous = out_dir / "costs.json"
    if not previous.exists():  # its name before `bench` became `costs`, read for one release
        previous = out_dir / "bench.json"
    if only:
        for name in [n for n in only if n in RENAMED]:
            log.warning("costs --only %s is now %s", name, RENAMED[name])
        only = [RENAMED.get(n, n) for n in only]
    if only and previous.exists():  # re-running some benches keeps the others' numbers
        kept = json.loads(previous.read_text()).get("benches", {})
        results["benches"] = {RENAMED.get(k, k): v for k, v in kept.items()}
    for name, fn in BENCHES.items():
        if only and name not in only:
            continue
        t = time.perf_counter()
        try:
            results["benches"][name] = fn(cache)
        except Exception as exc:  # noqa: BLE001 - one broken bench must not hide the others
            results["benches"][name] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        results["benches"][name]["wall_s"] = round(time.perf_counter() - t, 1)
        log.info("[costs] %s: %s", name, json.dumps(results["benches"][name])[:300])
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out_dir / "costs.json", (json.dumps(results, indent=1) + "\n").encode())
    atomic_write_bytes(out_dir / "costs.md", render(results).encode())
    return results


def _embedders(r: dict | None) -> list[str]:
    """The per-embedder table: ours against the raw library call, interleaved in one process."""
    if not r:
        return []
    if "error" in r:
        return ["", f"## Embedders: error: {r['error']}"]
    lines = ["", f"## Embedders (ours vs the raw library call, interleaved: {r['rounds']} rounds of {r['texts']} "
                 f"documents and {r['queries_per_round']} single queries)", "",
             table_row(["embedder", "model MB", "texts/s ours", "texts/s raw", "ratio", "texts/s spread (ours)",
                   "query p50 ms ours", "query p95 ms ours", "query p50 ms raw", "query p95 ms raw",
                   "query p50 ratio", "ratio by half"]), table_row(["---"] * 12)]
    for e in r["rows"]:
        lines.append(table_row([e["embedder"], e["model_mb"], e["ours_texts_per_s"], e["raw_texts_per_s"],
                           e["throughput_ratio"], "–".join(map(str, e["texts_per_s_spread"])),
                           e["ours_query_p50_ms"], e["ours_query_p95_ms"], e["raw_query_p50_ms"],
                           e["raw_query_p95_ms"], e["query_p50_ratio"], " / ".join(map(str, e["query_ratio_halves"]))]))
    return lines


def render(results: dict) -> str:
    m = results["machine"]
    lines = ["# hermes-eval costs: what the parts cost (speed, memory)", "",
             f"Machine: {m.get('platform')}, {m.get('cpus')} CPUs, {m.get('processor')}; "
             f"Python {m.get('python')}; measured {results['when']}.", "",
             "## Targets", "", table_row(["cost", "measured", "target", "result"]), table_row(["---"] * 4)]
    b = results["benches"]
    summary = {"sweep_reuse": ("ratio", "{single_arm_s}s single vs {grid_6_arms_s}s for 6 arms"),
               "harness_overhead": ("ratio", "{pipeline_p50_ms} ms vs raw {raw_bm25s_p50_ms} ms; "
                                    "outside stages {outside_stages_share_p50}"),
               "embedding_throughput": ("ratio", "{pipeline_texts_per_s} vs raw {raw_texts_per_s} texts/s")}
    for name, (key, fmt) in summary.items():
        r = b.get(name)
        if not r:
            continue
        if "error" in r:
            lines.append(table_row([name, r["error"], "-", "error"]))
            continue
        lines.append(table_row([name, f"{key} {r[key]} ({fmt.format(**r)})", r["target"],
                           "pass" if r["passed"] else "**miss**"]))
    if "metrics_speed" in b and "error" not in b["metrics_speed"]:
        r = b["metrics_speed"]
        lines.append(table_row(["metrics_speed", f"{r['total_seconds']} s for {r['queries']} queries x "
                           f"{r['depth']} ({r['metrics']} metrics + CIs)", "-", "-"]))
    from hermes_eval.costs import boards_build

    lines += boards_build.target_row(b.get("boards_build"))
    lines += _embedders(b.get("embedders"))
    from hermes_eval.costs.swebench_cost import markdown as swebench_markdown

    lines += swebench_markdown(b.get("swebench_cost"))
    from hermes_eval.costs.swebench_dense_cost import markdown as swebench_dense_markdown

    lines += swebench_dense_markdown(b.get("swebench_dense_cost"))
    from hermes_eval.costs.snapshot_sets import markdown as snapshot_sets_markdown

    lines += snapshot_sets_markdown(b.get("snapshot_sets"))
    from hermes_eval.costs.snapshot_dense import markdown as snapshot_dense_markdown

    lines += snapshot_dense_markdown(b.get("snapshot_dense"))  # the snapshot-set section's dense row
    from hermes_eval.costs.small_set import markdown as small_set_markdown

    lines += small_set_markdown(b.get("small_set"))
    lines += boards_build.markdown(b.get("boards_build"))
    sc = b.get("scaling")
    if sc and "rows" in sc:
        lines += ["", f"## Scaling ({sc['corpus']}, 10-line windows; dense vectors random, labelled)", "",
                  table_row(["backend", "chunks", "build s", "query p50 ms", "query p95 ms", "MB on disk",
                        "peak RSS MB", "RSS growth MB"]), table_row(["---"] * 8)]
        for r in sc["rows"]:
            if "error" in r:
                lines.append(table_row([r["backend"], r["chunks"], "error", r["error"][:80], "", "", "", ""]))
            else:
                lines.append(table_row([r["backend"], r["chunks"], r["build_s"], r["query_p50_ms"], r["query_p95_ms"],
                                   round(r["bytes"] / 1e6, 2), r["peak_rss_mb"], r.get("rss_growth_mb", "")]))
        lines += ["", "Query-time growth exponent (slope of log p50 vs log chunks): " + ", ".join(
            f"{k} {v}" for k, v in sc["query_time_growth_exponent"].items()), ""]
    return "\n".join(lines) + "\n"
