"""What reports/ tracks stays small, so a board rebuild adds little to the history: no tracked file over
1 MB, 5 MB in all, and a board's build outputs (its explorer data scripts, its recall and latency
charts) ignored, not tracked (`make boards` makes them from the committed results)."""
from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MAX_FILE = 1_000_000
MAX_TOTAL = 5_000_000
BUILD_OUTPUTS = ("reports/benchmarks/swebench/explorer/swebench-lite.js", "reports/explorer/default-docstring.js",
                 "reports/charts/default-docstring-recall.png", "reports/embedders/charts/x-latency.png",
                 "reports/benchmarks/history/leaderboard.html")


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False)


def _tracked() -> dict[str, int]:
    out = _git("ls-files", "-z", "reports")
    assert out.returncode == 0, out.stderr.decode()
    paths = [p for p in out.stdout.decode().split("\0") if p]
    return {p: (REPO / p).stat().st_size for p in paths if (REPO / p).is_file()}


def test_no_tracked_report_is_over_1_mb_and_all_fit_in_5_mb():
    sizes = _tracked()
    assert sizes, "git ls-files found nothing under reports/"
    assert {p: n for p, n in sizes.items() if n > MAX_FILE} == {}
    assert sum(sizes.values()) <= MAX_TOTAL, f"{sum(sizes.values())} bytes tracked under reports/"


def test_board_build_outputs_are_ignored_and_not_tracked():
    for path in BUILD_OUTPUTS:
        assert _git("check-ignore", "-q", "--no-index", path).returncode == 0, f"{path} is not ignored"
    tracked = _tracked()
    assert [p for p in tracked if "/explorer/" in p or p.endswith(("-recall.png", "-latency.png"))] == []
    assert "reports/benchmarks/history/leaderboard.html" not in tracked
    assert "reports/leaderboard.md" in tracked  # the markdown boards stay
