"""What a record says about where it ran: package versions, machine, commit, memory."""
from __future__ import annotations

import os
import platform
import resource
import subprocess
from pathlib import Path

from hermes_eval.cache.content import key_of
from retrievers.identity import distributions

VERSIONED = ("hermes-eval", "ranx", "numpy", "torch", "sentence-transformers", "rank-bm25", "bm25s",
             "faiss-cpu", "usearch", "tantivy", "hydra-core", "datasets", "astchunk", "sqlite-vec")


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in VERSIONED:
        got = distributions.installed(name)
        if got is not None:
            out[name] = got
    return out


def machine() -> dict:
    return {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(), "hostname_hash": key_of(platform.node())[:8]}


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def reset_peak_rss() -> str:
    """Restart this process's VmHWM at its current RSS (Linux: ``5`` to /proc/self/clear_refs), so the
    next :func:`peak_rss_mb` is the peak of what ran since: one job's own peak even in a reused joblib
    worker or a gate that runs several arms in one process. Returns the scope the next reading has:
    ``"job"`` after a reset, ``"process"`` where the kernel refuses (then it includes earlier jobs)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return "job"
    except OSError:
        return "process"


def peak_rss_mb() -> float:
    """This process's high-water RSS in MB: VmHWM (since exec or the last :func:`reset_peak_rss`),
    so a child never reports its parent's memory; ru_maxrss where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
