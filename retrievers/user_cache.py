"""Files a process keeps in the user's cache between runs, as bytecode is (composed configs, the parts' probe
digests): their folder, moved or turned off by an environment variable, each file written whole or not at all,
and the newest kept."""
from __future__ import annotations

import os
from pathlib import Path

OFF = ("off", "0", "false", "no")


def folder(env: str, name: str) -> Path | None:
    """``$env`` when set; else ``$XDG_CACHE_HOME/hermes-eval/NAME`` (``~/.cache`` without it); None when ``$env``
    turns it off or no home folder is known (everything is then computed every time)."""
    value = os.environ.get(env, "")
    if turned_off(env):
        return None
    if value:
        return Path(value)
    try:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    except RuntimeError:
        return None
    return Path(base) / "hermes-eval" / name


def listing(root: Path, suffixes: tuple[str, ...] | None = None) -> list[tuple[str, int, int]]:
    """(path under ``root``, size, change time) of every file below ``root`` (those ending in ``suffixes`` when
    given), ``__pycache__`` left out, in a fixed order: what a key of files a cache was derived from holds."""
    out = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if suffixes is None or name.endswith(suffixes):
                st = os.stat(os.path.join(here, name))
                out.append((os.path.relpath(os.path.join(here, name), root), st.st_size, st.st_mtime_ns))
    return out


def turned_off(env: str) -> bool:
    """Whether ``$env`` is set to one of :data:`OFF`."""
    return os.environ.get(env, "").lower() in OFF


def store(path: Path, data: bytes, keep: int) -> None:
    """``data`` written to ``path`` through a temporary file; then, when the folder holds more than ``keep`` files
    of ``path``'s suffix, only the newest half of ``keep`` stay. Nothing is written where it cannot be."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
        _prune(path.parent, f"*{path.suffix}", keep)
    except OSError:
        tmp.unlink(missing_ok=True)


def _prune(where: Path, pattern: str, keep: int) -> None:
    stored = list(where.glob(pattern))
    if len(stored) <= keep:
        return
    for old in sorted(stored, key=_age)[: len(stored) - keep // 2]:
        old.unlink(missing_ok=True)


def _age(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:  # pruned by another process meanwhile
        return 0
