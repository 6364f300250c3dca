"""Many requests to one long-lived ``git cat-file --batch`` or ``--batch-check`` process in one round trip.

Asking one object at a time waits for git once per object (a write, a flush, a read): thousands of waits for
a history's snapshots. Here a thread writes every request while the caller reads the answers in order, so
git streams them back-to-back, and neither side can block the other on a full pipe.
"""
from __future__ import annotations

import subprocess
import threading
from typing import Iterable


SMALL = 4096  # request bytes any pipe holds whole: written before reading, with no thread


def _write_all(stdin, request: bytes) -> None:
    stdin.write(request)
    stdin.flush()


def ask(proc: subprocess.Popen, names: Iterable[str], content: bool
        ) -> list[tuple[list[bytes], bytes | None]]:
    """(header fields, content) per name, in order; ``content`` False for ``--batch-check`` (None is
    returned), and None too for a name git reports missing (its header has fewer than 3 fields)."""
    names = list(names)
    if not names:
        return []
    request = b"".join(name.encode() + b"\n" for name in names)
    writer = None
    if len(request) <= SMALL:
        _write_all(proc.stdin, request)
    else:
        writer = threading.Thread(target=_write_all, args=(proc.stdin, request), daemon=True)
        writer.start()
    out: list[tuple[list[bytes], bytes | None]] = []
    try:
        for _ in names:
            header = proc.stdout.readline().split()
            data = None
            if content and len(header) == 3:
                size = int(header[2])
                data = proc.stdout.read(size + 1)[:size]
            out.append((header, data))
    finally:
        if writer is not None:
            writer.join()
    return out
