"""``importlib.metadata.packages_distributions()`` and distributions' versions, kept on disk between processes.

Building the map reads every installed distribution's metadata (about 0.2 s of a small run's second on two
cores). The map only changes when a distribution is installed, upgraded or removed, so it is stored next to
the interpreter's environment (``sys.prefix``), keyed by the name and change time of every ``*.dist-info``
and ``*.egg-info`` entry on ``sys.path``; any change there rebuilds it. The file keeps the maps of the last
:data:`KEYS_KEPT` keys: processes started in the source checkout see its ``*.egg-info`` on ``sys.path`` and
others do not, and one stored map would be rebuilt in turn by each. Where the environment is not writable
the map is built in memory, as before.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

CACHE_NAME = ".hermes-eval-distributions.json"
KEYS_KEPT = 8  # distinct sys.path listings remembered (working directories with their own distributions)


_now: dict[tuple[str, ...], str] = {}  # sys.path -> its key, taken once per process as an imported library is


def listing_key(path: list[str] | None = None) -> str:
    """A digest of every distribution's metadata entry (name and change time) on ``path``; on ``sys.path`` (the
    default) taken once per process: a run asks for it three times, 1.5 ms each."""
    if path is None:
        here = tuple(sys.path)
        if here not in _now:
            _now[here] = listing_key(list(here))
        return _now[here]
    h = hashlib.sha256()
    for entry in path:
        try:
            with os.scandir(entry or ".") as it:
                names = sorted((e.name, e.stat().st_mtime_ns) for e in it
                               if e.name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
        if names:  # a folder without distributions (a run's working directory) does not move the key
            h.update(json.dumps([os.path.abspath(entry or "."), names]).encode())
    return h.hexdigest()


def cache_file() -> Path:
    return Path(sys.prefix) / CACHE_NAME


def _load(cache: Path) -> dict:
    """The stored file: {"maps": {key: map}, "versions": {key: {distribution: version or null}}}."""
    try:
        data = json.loads(cache.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _section(data: dict, name: str) -> dict:
    got = data.get(name)
    return got if isinstance(got, dict) else {}


def _save(cache: Path, data: dict) -> None:
    """Write ``data`` whole (atomically), each section trimmed to the newest :data:`KEYS_KEPT` keys."""
    data = {name: dict(list(_section(data, name).items())[-KEYS_KEPT:]) for name in ("maps", "versions")}
    tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data))
        os.replace(tmp, cache)
    except OSError:
        tmp.unlink(missing_ok=True)


def packages_distributions(cache: Path | None = None) -> dict[str, list[str]]:
    """Import name -> the distributions providing it, as ``importlib.metadata`` computes it."""
    cache = cache if cache is not None else cache_file()
    key = listing_key()
    data = _load(cache)
    maps = _section(data, "maps")
    if isinstance(maps.get(key), dict):
        return {k: list(v) for k, v in maps[key].items()}
    from importlib import metadata  # on a miss only: it imports email, csv and zipfile

    found = metadata.packages_distributions()
    maps.pop(key, None)
    maps[key] = found  # newest last: the oldest listing is the first dropped
    data["maps"] = maps
    _save(cache, data)
    return found


_loaded: dict[Path, tuple[str, dict]] = {}  # cache file -> (this process's key, the file's data), read once


def installed(distribution: str, cache: Path | None = None) -> str | None:
    """``importlib.metadata.version(distribution)``, None where it is not installed, kept in the same file under
    the same key: parsing a distribution's metadata costs about a millisecond, and a run asks for some twenty.
    The key is taken once per process, as an imported library's version is."""
    cache = cache if cache is not None else cache_file()
    if cache not in _loaded:
        _loaded[cache] = (listing_key(), _load(cache))
    key, data = _loaded[cache]
    versions = _section(data, "versions")
    stored = _section(versions, key)
    if distribution not in stored:
        from importlib import metadata  # on a miss only: it imports email, csv and zipfile

        try:
            stored[distribution] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            stored[distribution] = None
        versions.pop(key, None)
        versions[key] = stored  # newest last
        data["versions"] = versions
        fresh = _load(cache)  # what other processes stored meanwhile (their maps) is kept
        fresh["versions"] = {**_section(fresh, "versions"), **versions}
        _save(cache, fresh)
    return stored[distribution]


def version(distribution: str, cache: Path | None = None) -> str:
    """:func:`installed`, raising ``importlib.metadata.PackageNotFoundError`` where it is not installed."""
    got = installed(distribution, cache)
    if got is None:
        from importlib import metadata

        raise metadata.PackageNotFoundError(distribution)
    return got
