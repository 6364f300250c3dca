"""The small-set bench on a scripted repository: it mines the set, runs ours, the reference and the start-up in
interleaved rounds, and reports each round's times, the median ratio and the time above start-up; a missing
mirror is a skipped set, not an error."""
from __future__ import annotations

import subprocess

from hermes_eval.costs import small_set

MESSAGES = ["Make the cache evict its least recently used entry first", "Guard the timer against a clock going back",
            "Count hits and misses of every cache in its info", "Let a key function hash unhashable arguments"]


def _repo(path):
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@a",
           "HOME": str(path)}
    path.mkdir(parents=True)
    run = lambda *a: subprocess.run(["git", "-C", str(path), *a], check=True, capture_output=True, env=env)  # noqa: E731
    run("init", "-q", "-b", "main")
    (path / "pkg").mkdir()
    for i, message in enumerate(["Add the package with its caches and timers", *MESSAGES]):
        for name in ("cache", "timer", "info", "keys"):
            body = "".join(f"def {name}_{j}(value):\n    return value + {i * j}\n\n" for j in range(4 + i))
            (path / "pkg" / f"{name}.py").write_text(body)
        run("add", "-A")
        run("commit", "-q", "-m", message, "--date", f"2024-01-0{i + 1}T00:00:00")


def test_rounds_times_and_ratios_on_a_scripted_repository(tmp_path, monkeypatch):
    _repo(tmp_path / "mirrors" / "me+lib" / "repo")
    monkeypatch.setenv("HERMES_MIRRORS", str(tmp_path / "mirrors"))
    sets = (small_set.SmallSet("lib-2", "me+lib", 2), small_set.SmallSet("gone", "no+such", None))
    got = small_set.run(rounds=2, sets=sets)
    [row] = got["rows"]
    assert got["skipped_sets"] == ["gone"] and row["set"] == "lib-2" and row["queries"] == 2
    assert len(row["ours_s"]) == len(row["reference_s"]) == len(row["startup_s"]) == len(row["floor_s"]) == 2
    assert all(t > 0 for t in row["ours_s"] + row["reference_s"] + row["startup_s"] + row["floor_s"])
    floors = sorted(f / r for f, r in zip(row["floor_s"], row["reference_s"]))
    assert floors[0] - 0.01 <= row["floor_over_reference"] <= floors[-1] + 0.01  # rounded to 2 places
    assert len(row["warm_s"]) == 2 and all(0 < w < o for w, o in zip(row["warm_s"], row["ours_s"]))
    bounds = sorted((f + w) / r for f, w, r in zip(row["floor_s"], row["warm_s"], row["reference_s"]))
    assert bounds[0] - 0.01 <= row["floor_and_work_over_reference"] <= bounds[-1] + 0.01
    ratios = sorted(o / r for o, r in zip(row["ours_s"], row["reference_s"]))
    assert row["ratio_spread"] == [round(ratios[0], 2), round(ratios[-1], 2)]
    assert row["ours_peak_rss_mb"] > 20 and row["reference_peak_rss_mb"] > 10
    assert row["passed"] == (row["ratio"] <= small_set.TARGET_RATIO)
    text = "\n".join(small_set.markdown(got))
    assert "| lib-2 | 2 | 2 |" in text and "Skipped (no mirror): gone." in text


def test_no_mirror_at_all_is_a_skipped_bench(tmp_path, monkeypatch):
    monkeypatch.setenv("HERMES_MIRRORS", str(tmp_path))
    got = small_set.run(rounds=1)
    assert "skipped" in got and "HERMES_MIRRORS" in got["skipped"]
    assert small_set.markdown(got)[-1].startswith("## Small sets: skipped")
