"""Indexes cached by content: (leg config, its code, chunk set, embedder identity) -> a saved index folder.

A folder is complete only once renamed into place with a manifest of file checksums; a
truncated or altered entry fails the check and is rebuilt, never loaded. A file lock per key
means parallel sweep jobs build each index once.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable, Sequence

from filelock import FileLock

from hermes_eval.cache.content import key_of
from retrievers.chunk import Chunk
from retrievers.identity.key import Identity, config_identity
from retrievers.identity.names import named
from retrievers.identity.probe import index_probe, ranked_ids
from retrievers.index import Index
from retrievers.leg_text import header_cut

MANIFEST = "manifest.json"


def chunk_set_hash(chunks: Sequence[Chunk]) -> str:
    """Hash of every chunk's id and text digest, in order; each distinct text digested once (a snapshot
    set repeats an unchanged file's chunks in every snapshot), and the pieces fed to the hash in slabs
    (one update per slab hashes the same bytes as one per piece)."""
    h = hashlib.sha256()
    digests: dict[str, bytes] = {}
    for i in range(0, len(chunks), HASH_SLAB):
        pieces = []
        for c in chunks[i:i + HASH_SLAB]:
            digest = digests.get(c.text)
            if digest is None:
                digest = digests[c.text] = hashlib.sha256(c.text.encode("utf-8", "surrogatepass")).digest()
            pieces += (c.id.encode(), b"\0", digest)
            cut = header_cut(c)
            if cut is not None:  # what some legs read differs from the text (only such chunks hash it)
                pieces.append(f"\0cut {cut.lines} {','.join(cut.inputs)}".encode())
        h.update(b"".join(pieces))
    return h.hexdigest()[:24]


HASH_SLAB = 65_536  # chunks per update of chunk_set_hash


def _files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _valid(entry: Path) -> bool:
    try:
        want = json.loads((entry / MANIFEST).read_text())["files"]
        return bool(want) and _files(entry / "index") == want
    except (OSError, ValueError, KeyError):
        return False


class CachedIndexStore:
    """The IndexStore the runner hands to ``Pipeline.build``."""

    def __init__(self, root: str | Path, keys: dict[str, str]):
        self.root = Path(root) / "indexes"
        self.keys = keys
        self.bytes: dict[str, int] = {}
        self.events: list[dict] = []

    def __call__(self, name: str, index: Index, build: Callable[[], None]) -> str:
        key = self.keys[name]
        entry = self.root / key
        self.root.mkdir(parents=True, exist_ok=True)
        source = "cache"
        if not _valid(entry):
            with FileLock(str(self.root / f"{key}.lock")):
                if not _valid(entry):
                    build()
                    self._store(entry, index)
                    source = "computed"
        if source == "cache":
            index.load(entry / "index")
        self.bytes[name] = sum((entry / "index" / f).stat().st_size for f in _files(entry / "index"))
        self.events.append({"kind": "index", "leg": name, "key": key, "source": source})
        return source

    def _store(self, entry: Path, index: Index) -> None:
        tmp = self.root / f".{entry.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        index.save(tmp / "index")
        (tmp / MANIFEST).write_text(json.dumps({"files": _files(tmp / "index")}))
        if entry.exists():  # a damaged entry: replace it
            shutil.rmtree(entry)
        os.rename(tmp, entry)


def leg_keys(leg_cfgs: dict[str, dict], chunks: Sequence[Chunk], embedder_identity: str | None,
             inputs: dict[str, str], build_leg: Callable[[dict], Any]) -> dict[str, str]:
    """The cache key of each leg: its config, its backend's and tokenizer's identity (:func:`leg_code`,
    probing a fresh index ``build_leg`` makes of the config), the chunk set and (for vector legs) the
    embedder, whose identity holds the embedder's own."""
    chunk_hash = chunk_set_hash(chunks)
    return {name: key_of(named(cfg), leg_code(cfg, build_leg), chunk_hash,
                         embedder_identity if inputs[name] == "vector" else None)
            for name, cfg in leg_cfgs.items()}


_LEG_IDS: dict[str, Identity] = {}


def leg_identity(cfg: dict, build_leg: Callable[[dict], Any]) -> Identity:
    """The parts a leg config names (declared names and versions, their libraries) and the hits a fresh
    instance of it (``build_leg(cfg)``) returns on the probe (:func:`retrievers.identity.probe.index_probe`),
    as ranked ids (its scores differ by CPU in their low bits)."""
    blob = json.dumps(cfg, sort_keys=True, default=str)
    if blob not in _LEG_IDS:
        _LEG_IDS[blob] = config_identity(cfg, lambda: ranked_ids(index_probe(build_leg(cfg))), memo="leg")
    return _LEG_IDS[blob]


def leg_code(cfg: dict, build_leg: Callable[[dict], Any]) -> str:
    """:func:`leg_identity`'s key."""
    return leg_identity(cfg, build_leg).key
