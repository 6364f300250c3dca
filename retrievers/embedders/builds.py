"""Models derived locally from a source model (ONNX export, int8 quantization, static distillation),
built once and cached by content.

A build lives in ``<cache>/models/<kind>-<key>/`` where ``key`` hashes everything that changes the
artifact: the kind, the source model's content fingerprint, the build settings, and the code identity
of the module that builds it (its source closure and the versions of the libraries it calls). The
folder is written under a temporary name, its ``BUILD.json`` manifest (every file's size and sha256)
is written last and the folder is renamed into place, so a folder without a valid manifest is a
partial build. On load every file is checked against the manifest; a mismatch (a truncated or edited
file) moves the folder aside as ``<name>.corrupt-<time>`` and builds again. Concurrent builders of
the same key serialize on a file lock: one builds, the others wait and load.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from retrievers.embedders.model_source import ModelUnavailable, source_folder

log = logging.getLogger(__name__)

MANIFEST = "BUILD.json"
MODELS_DIR = "models"


class BuildError(RuntimeError):
    """A derived model cannot be built here (a library or the source model is missing)."""


def source_model(model: str) -> Path:
    """The local folder a derived model is built from; a missing one is a BuildError saying what to install."""
    try:
        return source_folder(model)
    except ModelUnavailable as exc:
        raise BuildError(str(exc)) from None


@dataclass(frozen=True)
class BuildSpec:
    """What a derived model is made from: ``kind`` (e.g. ``onnx-fp32``), the source model's
    fingerprint, the build settings and the code identity of the builder."""

    kind: str
    source_fingerprint: str
    settings: Mapping[str, Any]
    code: str

    @property
    def key(self) -> str:
        blob = json.dumps({"kind": self.kind, "source": self.source_fingerprint,
                           "settings": dict(self.settings), "code": self.code}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    @property
    def folder_name(self) -> str:
        return f"{self.kind}-{self.key}"


@dataclass(frozen=True)
class Built:
    """A ready derived model: its folder, how it was obtained, and its size on disk."""

    path: Path
    source: str  # "built", "cached" or "rebuilt" (a corrupt or partial build was replaced)
    files: Mapping[str, int] = field(default_factory=dict)  # relative path -> bytes

    @property
    def bytes(self) -> int:
        return int(sum(self.files.values()))


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _manifest_for(folder: Path, spec: BuildSpec) -> dict:
    files = {str(p.relative_to(folder)): {"bytes": p.stat().st_size, "sha256": _sha256(p)}
             for p in sorted(folder.rglob("*")) if p.is_file() and p.name != MANIFEST}
    return {"kind": spec.kind, "key": spec.key, "source_fingerprint": spec.source_fingerprint,
            "settings": dict(spec.settings), "code": spec.code, "files": files,
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def verify(folder: Path, spec: BuildSpec) -> tuple[bool, str]:
    """(ok, why not): the manifest exists, names this key, and every file matches it."""
    manifest = folder / MANIFEST
    if not manifest.exists():
        return False, f"no {MANIFEST} (partial build)"
    try:
        data = json.loads(manifest.read_text())
    except (OSError, ValueError) as exc:
        return False, f"{MANIFEST} unreadable ({type(exc).__name__})"
    if data.get("key") != spec.key:
        return False, f"{MANIFEST} names key {data.get('key')!r}, expected {spec.key!r}"
    for rel, meta in (data.get("files") or {}).items():
        p = folder / rel
        if not p.is_file():
            return False, f"{rel} missing"
        if p.stat().st_size != meta.get("bytes") or _sha256(p) != meta.get("sha256"):
            return False, f"{rel} does not match its checksum"
    if not data.get("files"):
        return False, f"{MANIFEST} lists no files"
    return True, ""


def _files(folder: Path) -> dict[str, int]:
    data = json.loads((folder / MANIFEST).read_text())
    return {rel: int(meta["bytes"]) for rel, meta in data["files"].items()}


def ensure_built(cache_dir: str | os.PathLike, spec: BuildSpec, build: Callable[[Path], None]) -> Built:
    """The folder of ``spec``'s model: verified from the cache, else built by ``build(tmp_folder)``
    (which writes the model's files into the folder it is given) and put in place atomically."""
    from filelock import FileLock

    root = Path(cache_dir) / MODELS_DIR
    root.mkdir(parents=True, exist_ok=True)
    final = root / spec.folder_name
    with FileLock(str(final) + ".lock"):
        replaced = False
        if final.exists():
            ok, why = verify(final, spec)
            if ok:
                return Built(final, "cached", _files(final))
            aside = final.with_name(f"{final.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
            log.warning("derived model %s is damaged (%s): moved to %s, rebuilding", final, why, aside)
            final.replace(aside)
            replaced = True
        tmp = root / f".{spec.folder_name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        try:
            build(tmp)
            manifest = _manifest_for(tmp, spec)
            if not manifest["files"]:
                raise BuildError(f"building {spec.kind} wrote no files into {tmp}")
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
            tmp.replace(final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return Built(final, "rebuilt" if replaced else "built", _files(final))


def require(module: str, pip_spec: str):
    """Import ``module`` or raise a one-line BuildError naming the pip command that installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise BuildError(f"{module} is not installed ({exc}): pip install '{pip_spec}' "
                         f"(pinned in pyproject.toml; `make setup` installs it)") from None
