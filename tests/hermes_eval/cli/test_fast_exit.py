"""The program's exit: the atexit handlers and the standard streams are flushed, the interpreter's teardown is
skipped, a thread still running is waited for, and a run's files are whole after it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import atexit, sys, threading, time
from pathlib import Path
from hermes_eval.cli.fast_exit import leave
out = Path(sys.argv[1])

class Teardown:
    def __del__(self):
        (out / "teardown").write_text("ran")

kept = Teardown()  # freed only by the interpreter's teardown
atexit.register(lambda: (out / "atexit").write_text("ran"))
if sys.argv[2] == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), (out / "thread").write_text("ran"))).start()
sys.stdout.write("unflushed line")
leave(3)
"""


def _leave(tmp_path: Path, mode: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), mode], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **env})


def test_leave_runs_the_atexit_handlers_flushes_and_skips_the_teardown(tmp_path):
    proc = _leave(tmp_path, "alone")
    assert proc.returncode == 3 and proc.stdout == "unflushed line"
    assert (tmp_path / "atexit").read_text() == "ran"
    assert not (tmp_path / "teardown").exists()


def test_a_running_thread_or_the_switch_gives_the_normal_exit(tmp_path):
    proc = _leave(tmp_path, "thread")
    assert proc.returncode == 3 and (tmp_path / "thread").read_text() == "ran"  # waited for
    assert (tmp_path / "teardown").exists()
    (tmp_path / "teardown").unlink()
    proc = _leave(tmp_path, "alone", HERMES_FAST_EXIT="0")
    assert proc.returncode == 3 and (tmp_path / "teardown").read_text() == "ran"


def test_a_run_ended_by_the_program_leaves_its_files_whole(tmp_path):
    words = [sys.executable, "-m", "hermes_eval.cli.main", "run", "retriever=bm25", "chunker=lines",
             f"paths.runs={tmp_path / 'runs'}", f"paths.cache={tmp_path / 'cache'}", "progress=off", "bootstrap=50"]
    first = subprocess.run(words, cwd=ROOT, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout.startswith("[ok]")
    [folder] = (tmp_path / "runs").iterdir()
    record = json.loads((folder / "record.json").read_text())
    rows = pq.read_table(next(folder.glob("*.parquet"))).to_pylist()
    assert record["status"] == "ok" and len(rows) == record["metrics"]["ndcg@10"]["n"] > 0
    again = subprocess.run(words, cwd=ROOT, capture_output=True, text=True)  # the finished record is served
    assert again.returncode == 0 and again.stdout.split()[1] == first.stdout.split()[1]
    assert json.loads((folder / "record.json").read_text()) == record
