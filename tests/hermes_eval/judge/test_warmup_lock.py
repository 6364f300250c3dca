"""ranx's kernels are compiled by one process at a time: warm() waits for another holder of the lock."""
from __future__ import annotations

import subprocess
import tempfile
import sys
import threading
import time
from pathlib import Path

from hermes_eval.judge import warmup_lock

HOLD = """
import sys
from filelock import FileLock
with FileLock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_the_lock_is_per_ranx_install_and_outside_the_project():
    path = warmup_lock.lock_path()
    assert path.parent == Path(tempfile.gettempdir()) and path.name.endswith(".lock")
    assert path == warmup_lock.lock_path()


def test_warm_waits_while_another_process_compiles(monkeypatch, lock_refusals):
    """Every kernel call comes after the other process let the lock go. The holder keeps it until the
    test has seen warm() either refused by the lock or calling a kernel, so no timing decides."""
    import ranx

    monkeypatch.setattr(warmup_lock, "_WARM", set())
    released = threading.Event()
    calls: list[bool] = []  # per ranx.evaluate call: had the holder been told to let go by then?
    evaluate = ranx.evaluate

    def counted(*args, **kwargs):
        calls.append(released.is_set())
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(ranx, "evaluate", counted)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(warmup_lock.lock_path())], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        done = threading.Event()
        worker = threading.Thread(target=lambda: (warmup_lock.warm(["ndcg@10", "mrr@10"]), done.set()), daemon=True)
        worker.start()
        while not (lock_refusals.is_set() or calls or not worker.is_alive()):
            time.sleep(0.01)
        assert warmup_lock._WARM == set()
    finally:
        released.set()
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(60)
    worker.join(300)
    assert done.is_set() and warmup_lock._WARM == {"ndcg@10", "mrr@10"}
    assert calls and all(calls), calls  # no kernel ran while the other process held the lock


def test_warm_runs_once_per_metric(monkeypatch):
    monkeypatch.setattr(warmup_lock, "_WARM", {"ndcg@10"})
    calls = []
    import ranx

    real = ranx.evaluate
    monkeypatch.setattr(ranx, "evaluate", lambda *a, **k: (calls.append(a[2]), real(*a, **k))[1])
    warmup_lock.warm(["ndcg@10"])
    warmup_lock.warm(["ndcg@10", "recall@5"])
    warmup_lock.warm(["recall@5"])
    assert calls == [["recall@5", "recall@5"]]  # a lone metric is asked twice (ranx_dicts.list_of_two)
