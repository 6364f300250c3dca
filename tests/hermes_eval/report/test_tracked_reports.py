"""What reports/ tracks stays small, so a board rebuild adds little to the history: no tracked file over
1 MB, 5 MB in all, and a board's build outputs (its explorer data scripts, its recall and latency
charts) ignored, not tracked (`make boards` makes them from the committed results).

Sizes are git's: the blobs the index holds (what a commit takes), not the working tree's files, which
`make sweep`, `make costs` and `make boards` rewrite in a user's clone without changing what is tracked."""
from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MAX_FILE = 1_000_000
MAX_TOTAL = 5_000_000
BUILD_OUTPUTS = ("reports/benchmarks/swebench/explorer/swebench-lite.js", "reports/explorer/default-docstring.js",
                 "reports/charts/default-docstring-recall.png", "reports/embedders/charts/x-latency.png",
                 "reports/benchmarks/history/leaderboard.html", "reports/benchmarks/leaderboard.html",
                 "reports/leaderboard.html")


def _git(*args: str, repo: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)


def _tracked(repo: Path = REPO) -> dict[str, int]:
    """Path -> size of the blob git's index holds for every tracked file under reports/."""
    out = _git("ls-files", "-s", "-z", "reports", repo=repo)
    assert out.returncode == 0, out.stderr.decode()
    entries = [e.split("\t", 1) for e in out.stdout.decode().split("\0") if e]
    blobs = {path: meta.split()[1] for meta, path in entries if meta.split()[0] != "160000"}  # no submodules
    sizes = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check=%(objectname) %(objectsize)"],
                           input="\n".join(blobs.values()).encode(), capture_output=True, check=True)
    size_of = dict(line.split() for line in sizes.stdout.decode().splitlines())
    return {path: int(size_of[sha]) for path, sha in blobs.items()}


def test_no_tracked_report_is_over_1_mb_and_all_fit_in_5_mb():
    sizes = _tracked()
    assert sizes, "git ls-files found nothing under reports/"
    assert {p: n for p, n in sizes.items() if n > MAX_FILE} == {}
    assert sum(sizes.values()) <= MAX_TOTAL, f"{sum(sizes.values())} bytes tracked under reports/"


def test_sizes_are_the_committed_blobs_not_the_working_tree(tmp_path):
    """A tracked file rewritten in the working tree (as a board build leaves it) is measured as committed."""
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "leaderboard.md").write_text("# board\n")
    git("add", "reports")
    git("commit", "-q", "-m", "board")
    (tmp_path / "reports" / "leaderboard.md").write_bytes(b"x" * (MAX_TOTAL + 1))  # a rebuilt board
    (tmp_path / "reports" / "untracked.png").write_bytes(b"x" * (MAX_FILE + 1))
    assert _tracked(tmp_path) == {"reports/leaderboard.md": len("# board\n")}


def test_board_build_outputs_are_ignored_and_not_tracked():
    for path in BUILD_OUTPUTS:
        assert _git("check-ignore", "-q", "--no-index", path).returncode == 0, f"{path} is not ignored"
    tracked = _tracked()
    assert [p for p in tracked if "/explorer/" in p or p.endswith(("-recall.png", "-latency.png"))] == []
    assert "reports/benchmarks/history/leaderboard.html" not in tracked
    assert "reports/leaderboard.md" in tracked  # the markdown boards stay
