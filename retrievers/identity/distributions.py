"""``importlib.metadata.packages_distributions()``, kept on disk between processes.

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
from importlib import metadata
from pathlib import Path

CACHE_NAME = ".hermes-eval-distributions.json"
KEYS_KEPT = 8  # distinct sys.path listings remembered (working directories with their own distributions)


def listing_key(path: list[str] | None = None) -> str:
    """A digest of every distribution's metadata entry (name and change time) on ``path`` (``sys.path``)."""
    h = hashlib.sha256()
    for entry in path if path is not None else sys.path:
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


def packages_distributions(cache: Path | None = None) -> dict[str, list[str]]:
    """Import name -> the distributions providing it, as ``importlib.metadata`` computes it."""
    cache = cache if cache is not None else cache_file()
    key = listing_key()
    try:
        maps = json.loads(cache.read_text())["maps"]
        if not isinstance(maps, dict):
            raise ValueError
    except (OSError, ValueError, TypeError, KeyError):
        maps = {}
    if isinstance(maps.get(key), dict):
        return {k: list(v) for k, v in maps[key].items()}
    found = metadata.packages_distributions()
    maps.pop(key, None)
    kept = dict(list(maps.items())[-(KEYS_KEPT - 1):]) if KEYS_KEPT > 1 else {}
    kept[key] = found  # newest last: the oldest listing is the first dropped
    tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"maps": kept}))
        os.replace(tmp, cache)
    except OSError:
        tmp.unlink(missing_ok=True)
    return found
