"""The cache identity of a built part: what it is (declared names and versions), what it runs on
(library versions, Python) and what it does (the digest of its probe's output).

A key is the same on every machine: a probe's output is hashed only when it is discrete (strings,
integers, booleans: chunks, tokens, ranked ids). Floating-point output differs in its low bits with the
SIMD path a library takes (MiniLM's vectors under ``ATEN_CPU_CAPABILITY=default`` and ``avx2`` round to
different 4-decimal values), so :func:`output_digest` refuses it: a part whose output is numeric is
keyed by what it is built from (declared version, model files, libraries), and a change in its numbers
is caught by the golden check within a tolerance (``tests/retrievers/identity``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
import hashlib
import json
import platform
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from retrievers.identity.declare import PartId, declared


def part_id(obj: Any) -> str:
    """``name@version`` a part declares (or a :class:`PartId` itself), else its import path (an undeclared part of a user's own)."""
    ident = obj if isinstance(obj, PartId) else declared(obj)
    if ident is not None:
        return str(ident)
    cls = obj if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__") else type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


class FloatInKey(TypeError):
    """A probe handed floating-point output to a key (its digest would differ by CPU)."""


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            raise FloatInKey(f"a key cannot hash a float array {value.shape}: its low bits differ by CPU")
        return _plain(value.tolist())
    if isinstance(value, (float, np.floating, complex)):
        raise FloatInKey(f"a key cannot hash the float {value!r}: its low bits differ by CPU; hash what is "
                         "discrete (ids, ranks, tokens) and compare numbers in a golden check with a tolerance")
    if isinstance(value, (np.integer,)):
        return int(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    raise FloatInKey(f"a key cannot hash a {type(value).__name__}: give it plain data (its repr may hold floats)")


def output_digest(output: Any) -> str:
    """A digest of a probe's discrete output (raises :class:`FloatInKey` on any float in it)."""
    blob = json.dumps(_plain(output), sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


@lru_cache(maxsize=None)
def _file_sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def resource_digests(parts: Iterable[Any]) -> dict[str, dict[str, str]]:
    """name -> {file name: content digest} of the resource files each declared part reads."""
    out: dict[str, dict[str, str]] = {}
    for p in parts:
        ident = p if isinstance(p, PartId) else declared(p)
        if ident is not None and ident.resources:
            out[ident.name] = {Path(r).name: _file_sha(r) for r in ident.resources}
    return out


@dataclass(frozen=True)
class Identity:
    """What a key is made of, kept so a record can say which of them changed."""

    parts: tuple[str, ...]  # name@version of each part, in order
    libraries: tuple[str, ...]  # dist==version, sorted
    python: str
    probe: str  # digest of the probe's discrete output
    resources: tuple[tuple[str, str, str], ...] = ()  # (part name, file name, content digest)

    @property
    def key(self) -> str:
        """16 hex digits over every field."""
        data = {"parts": list(self.parts), "libs": list(self.libraries), "python": self.python, "probe": self.probe}
        if self.resources:
            data["resources"] = [list(r) for r in self.resources]
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def to_dict(self) -> dict:
        return {"key": self.key, "parts": list(self.parts), "libraries": list(self.libraries),
                "python": self.python, "probe": self.probe, "resources": [list(r) for r in self.resources]}


def identity_of(parts: Iterable[Any], output: Any, libraries: Iterable[str] = ()) -> Identity:
    """The parts' declared identities and resource files, ``libraries`` (``dist==version`` strings), the
    Python version and the digest of the probe's discrete ``output``."""
    return identity_from(parts, output_digest(output), libraries)


def identity_from(parts: Iterable[Any], probe: str, libraries: Iterable[str] = ()) -> Identity:
    """:func:`identity_of` given the probe's digest (:func:`output_digest`)."""
    parts = list(parts)
    resources = tuple((name, file, sha) for name, files in sorted(resource_digests(parts).items())
                      for file, sha in sorted(files.items()))
    return Identity(tuple(part_id(p) for p in parts), tuple(sorted(set(libraries))), platform.python_version(),
                    probe, resources)


def part_key(parts: Iterable[Any], output: Any, libraries: Iterable[str] = ()) -> str:
    """16 hex digits over :func:`identity_of`."""
    return identity_of(parts, output, libraries).key


def config_identity(node: Any, output: Callable[[], Any], libraries: Iterable[str] = (),
                    memo: str | None = None) -> Identity:
    """The identity of what a plain config builds: every part its ``_target_``s name (declared identities
    and the libraries their modules import, plus ``libraries``) and ``output()``, the probe run on the
    built part. ``memo`` names the probe's kind (``leg``, ``chunker``): its digest is then kept between the
    program's processes (:mod:`retrievers.identity.probe_memo`)."""
    from retrievers.identity.libraries import library_versions
    from retrievers.identity.names import targets
    from retrievers.identity.probe_memo import remembered

    found = targets(node)
    parts = [t for t in found if t is not None]
    modules = sorted({p.__module__ for p in parts})
    if memo is None or None in found:  # a target that does not import: its probe's code is unknown
        probe = output_digest(output())
    else:
        probe = remembered(memo, json.dumps(node, sort_keys=True, default=repr), modules,
                           lambda: output_digest(output()))
    return identity_from(parts, probe, library_versions(modules, libraries))


def config_key(node: Any, output: Callable[[], Any], libraries: Iterable[str] = ()) -> str:
    """16 hex digits over :func:`config_identity`."""
    return config_identity(node, output, libraries).key
