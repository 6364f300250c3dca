"""What /proc says of a process, for tests that stop and resume processes on purpose."""
from __future__ import annotations

from pathlib import Path


def process_stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name: ``[0]`` the state (``T`` stopped), ``[2]`` the
    process group."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
