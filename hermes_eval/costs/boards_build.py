"""What ``make boards`` costs (issue 55): every board under ``reports/`` rebuilt from its committed results
(``hermes-eval leaderboard --from-results DIR``, one process per board, in the Makefile's order), each into
a fresh folder of its own, so nothing is kept from an earlier build and the tracked reports are not
touched. Each board's wall seconds and peak RSS (``wait4``'s, the process and what it waited for); the
whole build's seconds against :data:`MAX_SECONDS` and the largest board's peak against :data:`MAX_RSS_MB`.

``python -m hermes_eval.costs.boards_build [REPORTS]`` prints the result as JSON; ``hermes-eval costs --only
boards_build`` writes it into reports/costs.json and costs.md.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from hermes_eval.costs.section import stand_in, table_row
from hermes_eval.costs.small_set import timed

MAX_SECONDS, MAX_RSS_MB = 120.0, 2048.0


def boards(reports: Path) -> list[Path]:
    """Every board's committed results folder under ``reports``, in the order ``make boards`` takes them."""
    from hermes_eval.report.freshness import RESULTS_INDEX
    from hermes_eval.report.publish import RESULTS_DIR

    return sorted((p.parent for p in reports.glob(f"**/{RESULTS_DIR}/{RESULTS_INDEX}")),
                  key=lambda p: str(p / RESULTS_INDEX))


def run(cache: Path | None = None, reports: Path = Path("reports")) -> dict:
    found = boards(reports)
    if not found:
        return {"skipped": f"no board results under {reports} (results/board.json)"}
    rows = []
    with tempfile.TemporaryDirectory(prefix="hermes-boards-") as tmp:
        start = time.perf_counter()
        for i, results in enumerate(found):
            wall, rss, _ = timed([sys.executable, "-m", "hermes_eval.cli.main", "leaderboard", "--from-results",
                                  str(results), "--out", str(Path(tmp) / str(i))])
            rows.append({"board": results.parent.as_posix(), "seconds": wall, "peak_rss_mb": rss})
        total = round(time.perf_counter() - start, 3)
    peak = max(r["peak_rss_mb"] for r in rows)
    return {"boards": len(rows), "seconds": total, "peak_rss_mb": peak, "rows": rows,
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),  # its own: costs --only keeps the rest
            "max_seconds": MAX_SECONDS, "max_rss_mb": MAX_RSS_MB,
            "passed": total <= MAX_SECONDS and peak <= MAX_RSS_MB}


def target_row(r: dict | None) -> list[str]:
    """The row of costs.md's Targets table."""
    if not r:
        return []
    if "error" in r or "skipped" in r:
        return [table_row(["boards_build", r.get("error") or f"skipped: {r['skipped']}", "-", "error" if "error" in r
                           else "-"])]
    return [table_row(["boards_build", f"{r['seconds']} s, peak RSS {r['peak_rss_mb']} MB ({r['boards']} boards, "
                                       "`make boards` from their committed results)",
                       f"<= {r['max_seconds']:g} s, <= {r['max_rss_mb']:g} MB", "pass" if r["passed"] else "**miss**"])]


def markdown(r: dict | None) -> list[str]:
    """The section for reports/costs.md: each board's rebuild."""
    head = stand_in("Boards build", r)
    if head is not None:
        return head
    lines = ["", f"## Boards build (`make boards`: {r['boards']} boards rebuilt from their committed results, one "
                 f"process each, into fresh folders; measured {r.get('when', '-')})", "",
             table_row(["board", "seconds", "peak RSS MB"]), table_row(["---"] * 3)]
    lines += [table_row([a["board"], a["seconds"], a["peak_rss_mb"]]) for a in r["rows"]]
    lines.append(table_row(["all", r["seconds"], r["peak_rss_mb"]]))
    return lines


if __name__ == "__main__":
    print(json.dumps(run(reports=Path(sys.argv[1]) if len(sys.argv) > 1 else Path("reports"))))
