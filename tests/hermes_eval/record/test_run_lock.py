"""One writer per run folder: a second process is told who holds it, or waits; a dead holder frees it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from hermes_eval.record.run_lock import HOLDER_NAME, RunBusy, is_locked, read_holder, run_lock

HOLD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from hermes_eval.record.run_lock import run_lock
    with run_lock(sys.argv[1]):
        (Path(sys.argv[1]) / "held").write_text("")
        sys.stdin.readline()
        (Path(sys.argv[1]) / "leaving").write_text("")
""")


def holder(run_dir: Path) -> subprocess.Popen:
    """Another process holding ``run_dir``'s lock until a line reaches its stdin (this checkout's code)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(run_dir)], stdin=subprocess.PIPE, text=True)
    while not (run_dir / "held").exists():
        assert proc.poll() is None, "the holder died before taking the lock"
        time.sleep(0.01)
    return proc


def let_go(proc: subprocess.Popen) -> None:
    proc.stdin.write("\n")
    proc.stdin.flush()


def test_a_second_writer_is_told_who_holds_the_run(tmp_path):
    run_dir = tmp_path / "run"
    proc = holder(run_dir)
    try:
        assert is_locked(run_dir) and read_holder(run_dir).pid == proc.pid
        with pytest.raises(RunBusy) as busy:
            with run_lock(run_dir):
                pytest.fail("the lock was granted twice")
        assert f"{run_dir}: pid {proc.pid} on " in str(busy.value) and "busy_run=wait" in str(busy.value)
    finally:
        proc.kill()
        proc.wait()


def test_wait_mode_gets_the_lock_when_the_holder_is_done(tmp_path, lock_refusals):
    """The holder keeps the lock until the waiter has been refused at least once (or, wrongly, let in),
    so the order of grant and release is decided by the lock, never by timing."""
    run_dir = tmp_path / "run"
    proc = holder(run_dir)
    granted, released = [], threading.Event()

    def waiter():
        with run_lock(run_dir, "wait"):
            granted.append((released.is_set(), (run_dir / "leaving").exists(), read_holder(run_dir).pid))

    try:
        with pytest.raises(RunBusy):  # not waiting, it is told at once
            with run_lock(run_dir):
                pytest.fail("the lock was granted twice")
        lock_refusals.clear()  # that try was refused too: only the waiter's refusals count from here
        thread = threading.Thread(target=waiter, daemon=True)
        thread.start()
        while not (lock_refusals.is_set() or granted or not thread.is_alive()):
            time.sleep(0.01)
        assert not granted, "granted while another process held the lock"
        assert thread.is_alive(), "the waiter gave up instead of waiting"
    finally:
        released.set()
        let_go(proc)
    thread.join(60)
    assert granted == [(True, True, os.getpid())]  # after the holder was done, and noted as the holder
    assert proc.wait(timeout=60) == 0
    assert not (run_dir / HOLDER_NAME).exists() and not is_locked(run_dir)


def test_a_holder_killed_by_sigkill_frees_the_lock_and_its_temporary_files_go(tmp_path):
    run_dir = tmp_path / "run"
    proc = holder(run_dir)
    (run_dir / ".run.trec.abc123.tmp").write_text("half a file")  # what a writer leaves when it dies
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not is_locked(run_dir)
    with run_lock(run_dir):
        assert not list(run_dir.glob("*.tmp"))
        assert (run_dir / "held").exists()  # its other files are not a temporary's to delete


def test_an_unknown_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match="busy_run='later'"):
        with run_lock(tmp_path / "run", "later"):
            pass
