"""A sweep stopped by Ctrl-C says so in one line: the arm it stopped, that the finished arms' records
are kept, and the command that resumes it (a re-run skips every arm whose finished record exists); the
exit code is 130, a shell's for SIGINT.

The launcher knows which arms it started: an arm's run folder is created, and its writer note written,
when the arm takes the folder's lock (record/run_lock.py), so a folder made or written since the launch
began, without a finished record, is an arm that was running.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

EXIT_CODE = 130


@dataclass(frozen=True)
class Stopped:
    """Where a sweep stood when it was stopped: the run folders of the arms it stopped, and how many of
    its arms have a finished record."""

    arms: tuple[Path, ...]
    finished: int
    total: int


class SweepInterrupted(KeyboardInterrupt):
    """The launcher's KeyboardInterrupt, with where the sweep stood."""

    def __init__(self, stopped: Stopped):
        super().__init__(stopped)
        self.stopped = stopped


def folder_times(run_dirs: Sequence[Path]) -> dict[Path, int | None]:
    """Each folder's modification time (ns) now, None for one that does not exist."""
    out: dict[Path, int | None] = {}
    for d in run_dirs:
        try:
            out[d] = d.stat().st_mtime_ns
        except OSError:
            out[d] = None
    return out


def changed(before: Mapping[Path, int | None]) -> tuple[Path, ...]:
    """The folders made or written since ``before`` was taken (:func:`folder_times`): the arms started
    since (a folder a previous sweep left, untouched, is not one)."""
    now = folder_times(list(before))
    return tuple(d for d, t in now.items() if t is not None and t != before[d])


def resume_command(overrides: Sequence[str]) -> str:
    """The sweep's own command without ``rerun`` (which would redo the finished arms)."""
    return shlex.join(["hermes-eval", "sweep", *(o for o in overrides if o != "rerun=true")])


def interrupted_line(stopped: Stopped | None, overrides: Sequence[str]) -> str:
    """The one line a stopped sweep prints (``stopped`` None: stopped before its launcher knew its arms)."""
    if stopped is None:
        where, kept = "before its arms started", "no arm was started"
    else:
        names = ", ".join(str(a) for a in stopped.arms)
        where = f"during arm {names}" if len(stopped.arms) == 1 else (
            f"during arms {names}" if stopped.arms else "between arms")
        kept = f"finished arms are kept ({stopped.finished} of {stopped.total} finished)"
    return f"hermes-eval: sweep interrupted {where}; {kept}; resume with: {resume_command(overrides)}"
