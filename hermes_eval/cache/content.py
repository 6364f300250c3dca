"""Content-addressed cache shared by sweep jobs: atomic writes, file locks, checksums.

An entry is ``<root>/<kind>/<key>.pkl`` with a sha256 sidecar; a truncated or corrupted
entry fails its checksum and is rebuilt instead of loaded.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from filelock import FileLock

from hermes_eval.core.failpoints import failpoint


UMASK = os.umask(0o022)
os.umask(UMASK)  # the process's umask, read once (os.umask can only read it by setting it)


def key_of(*parts: Any) -> str:
    """A stable hash of JSON-able parts."""
    blob = json.dumps(parts, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:24]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """``data`` to ``path`` through a temporary file private to this writer (``.NAME.XXXX.tmp``)."""
    atomic_write_parts(path, (data,))


def atomic_write_parts(path: Path, parts: Iterable[bytes]) -> None:
    """:func:`atomic_write_bytes` of ``parts`` one after the other, never all in memory at once."""
    try:
        failpoint("write", path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _naming(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o666 & ~UMASK)  # as open() would make it, not mkstemp's 0600
            for data in parts:
                fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, path) from None
        raise


def _naming(exc: OSError, path: Path) -> OSError:
    """``exc`` with the file it was writing (a failed write() names no file)."""
    if exc.filename is not None or exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, str(path))


class Cache:
    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.events: list[dict] = []  # what came from the cache and what was computed

    def _paths(self, kind: str, key: str) -> tuple[Path, Path]:
        base = self.root / kind / key
        return base.with_suffix(".pkl"), base.with_suffix(".sha256")

    def _read(self, kind: str, key: str) -> tuple[bool, Any]:
        data_path, sum_path = self._paths(kind, key)
        try:
            data = data_path.read_bytes()
            expected = sum_path.read_text().strip()
        except OSError:
            return False, None
        if hashlib.sha256(data).hexdigest() != expected:
            return False, None
        try:
            return True, pickle.loads(data)
        except Exception:  # noqa: BLE001 - any unpickling failure means rebuild
            return False, None

    def get_or_compute(self, kind: str, key: str, compute: Callable[[], Any]) -> Any:
        """The cached value, or ``compute()`` stored once even when jobs race for it."""
        ok, value = self._read(kind, key)
        if ok:
            self.events.append({"kind": kind, "key": key, "source": "cache"})
            return value
        lock = self.root / kind / f"{key}.lock"
        lock.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(lock)):
            for stale in lock.parent.glob(f".{key}.*.tmp"):  # a writer of this key that died mid-write
                stale.unlink(missing_ok=True)
            ok, value = self._read(kind, key)
            if ok:
                self.events.append({"kind": kind, "key": key, "source": "cache"})
                return value
            value = compute()
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            data_path, sum_path = self._paths(kind, key)
            atomic_write_bytes(data_path, data)
            atomic_write_bytes(sum_path, hashlib.sha256(data).hexdigest().encode())
        self.events.append({"kind": kind, "key": key, "source": "computed"})
        return value
