"""Document vectors on disk: one SQLite file shared by processes, every row checksummed.

A row holds ``chk = sha256(model | text sha | dim | vector bytes)``; a row whose checksum does not
match is deleted, logged and recomputed by the caller (it is reported as missing). A file SQLite
itself cannot read (``PRAGMA quick_check`` fails on open) is moved aside as
``<name>.corrupt-<time>`` and a fresh cache is started. Both are counted in :attr:`damage`, which
the embedder copies into its stats (and so into each run record).
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
import time
from pathlib import Path
from contextlib import nullcontext
from typing import Callable, ContextManager, Sequence

import numpy as np

from retrievers.digest import text_sha

log = logging.getLogger(__name__)

SCHEMA = ("CREATE TABLE IF NOT EXISTS vectors (model TEXT, sha TEXT, dim INTEGER, vec BLOB, chk TEXT, "
          "PRIMARY KEY (model, sha))")


def row_checksum(model: str, sha: str, dim: int, blob: bytes) -> str:
    h = hashlib.sha256(f"{model}\0{sha}\0{dim}\0".encode())
    h.update(blob)
    return h.hexdigest()[:32]


class EmbeddingCache:
    """Vectors keyed by (model key, sha256 of text); safe across processes (WAL, busy timeout)."""

    def __init__(self, path: Path):
        self.path = path
        self.damage = {"corrupt_rows": 0, "corrupt_file_moved_to": None}
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            log.warning("embedding cache %s is corrupt (%s): moved to %s, rebuilding", path, exc, aside)
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(path) + suffix)
                if src.exists():
                    src.replace(Path(str(aside) + suffix))
            self.damage["corrupt_file_moved_to"] = str(aside)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=120, isolation_level=None)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {check}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(SCHEMA)
            db.execute("DROP TABLE IF EXISTS emb")  # the unchecksummed table of earlier versions
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def get(self, model: str, shas: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors found for ``shas``; rows failing their checksum are dropped and left out."""
        out: dict[str, np.ndarray] = {}
        bad: list[str] = []
        for i in range(0, len(shas), 500):
            part = list(shas[i:i + 500])
            rows = self._db.execute(
                f"SELECT sha, dim, vec, chk FROM vectors WHERE model=? AND sha IN ({','.join('?' * len(part))})",
                [model, *part]).fetchall()
            for sha, dim, blob, chk in rows:
                if row_checksum(model, sha, dim, blob) != chk or len(blob) != 4 * dim:
                    bad.append(sha)
                else:
                    out[sha] = np.frombuffer(blob, dtype=np.float32)
        if bad:
            log.warning("embedding cache %s: %d rows failed their checksum; dropped, they are recomputed",
                        self.path, len(bad))
            self.damage["corrupt_rows"] += len(bad)
            self._db.executemany("DELETE FROM vectors WHERE model=? AND sha=?", [(model, s) for s in bad])
        return out

    def put(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = []
        for sha, v in items.items():
            blob = np.asarray(v, np.float32).tobytes()
            rows.append((model, sha, int(v.shape[0]), blob, row_checksum(model, sha, int(v.shape[0]), blob)))
        self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?,?,?,?,?)", rows)


def model_lock(cache: EmbeddingCache, identity: str):
    """The file lock under which one process at a time encodes what the cache lacks for ``identity``."""
    from filelock import FileLock

    return FileLock(str(cache.path) + f".{text_sha(identity)[:12]}.lock")


def missing_slices(missing: dict[str, str], checkpoint: int) -> list[list[tuple[str, str]]]:
    """The (sha, text) slices in which the texts the cache lacks (``sha -> text``) are encoded: sorted by
    sha, ``checkpoint`` at a time. Every encoder of the missing texts (this process, or the workers of a
    cluster: embedders/scale_out.py) cuts them this way, so each vector is made in the same batches."""
    ordered = sorted(missing.items())
    step = max(1, checkpoint)
    return [ordered[i:i + step] for i in range(0, len(ordered), step)]


def embed_through_cache(cache: EmbeddingCache, identity: str, texts: Sequence[str],
                        encode: Callable[[list[str]], np.ndarray], stats: dict, checkpoint: int = 1024,
                        progress: Callable[[int], ContextManager] | None = None) -> np.ndarray:
    """Vectors of ``texts``: read from ``cache``, the missing ones encoded (once, across processes:
    a file lock per model) and written back ``checkpoint`` texts at a time, so an arm killed half-way
    keeps every slice it finished; ``stats`` counts computed, cached and damaged rows."""
    shas = [text_sha(t) for t in texts]
    found = cache.get(identity, shas)
    missing = {s: t for s, t in zip(shas, texts) if s not in found}
    if missing:
        # parallel sweep jobs embedding the same texts: one computes, the others wait and read
        with model_lock(cache, identity):
            found.update(cache.get(identity, list(missing)))
            missing = {s: t for s, t in missing.items() if s not in found}
            with progress(len(missing)) if progress and missing else nullcontext():
                for part in missing_slices(missing, checkpoint):
                    fresh = {s: v for (s, _), v in zip(part, encode([t for _, t in part]))}
                    cache.put(identity, fresh)
                    found.update(fresh)
    stats["computed"] += len(missing)
    stats["cached"] += len(texts) - len(missing)
    stats.update(cache.damage)
    return np.stack([found[s] for s in shas]).astype(np.float32)
