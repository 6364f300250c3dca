"""Probe digests and library versions kept on disk between processes of the program, as bytecode is.

A part's identity runs the part on fixed inputs (``probe.py``) and follows its modules' imports to the libraries
they call (``libraries.py``): read back instead, a small run took 10.7 ms less (median of 12 paired rounds,
``HERMES_PROBE_CACHE=off`` against on; issue 55). What they give depends only on code, so it is kept under a key of that code:

- every file under the project's packages (``retrievers/``, ``hermes_eval/``: path, size, change time);
- the installed distributions (their metadata entries, ``distributions.listing_key``) and the Python version;
- the ``HERMES_*`` environment, and what was probed (the part's config).

Any edit, install or upgrade gives another key, so it is computed afresh. Two limits keep that true:

- only the program reads it back (``hermes-eval``: :func:`hermes_eval.cli.main.entry` calls :func:`turn_on`),
  where the code is what the files hold. A process that imports the project (the API, the tests) may patch a
  part in memory, so there every probe runs, as before;
- a part of the user's own (a module outside the project) is probed every time: its files are not in the key.

``HERMES_PROBE_CACHE`` names the folder (default ``$XDG_CACHE_HOME/hermes-eval/probes``); ``off`` turns it off.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from retrievers import user_cache
from retrievers.identity import distributions

ENV = "HERMES_PROBE_CACHE"
FORMAT = 1  # bump when what is stored changes
KEEP = 4096  # entries kept; the oldest half goes when there are more
PROJECT = ("retrievers", "hermes_eval")
_on = False


def turn_on() -> None:
    """Read stored probes back in this process (the program's own: its code is its files)."""
    global _on
    _on = True


def folder() -> Path | None:
    """Where probes are kept; None when turned off."""
    return user_cache.folder(ENV, "probes")


def _roots() -> list[Path]:
    out = []
    for name in PROJECT:
        spec = importlib.util.find_spec(name)  # a top-level package is found without importing it
        out += [Path(p) for p in (spec.submodule_search_locations or [])] if spec is not None else []
    return out


@lru_cache(maxsize=1)
def code_key() -> str:
    """The digest of the code a probe runs (see the module's docstring)."""
    h = hashlib.sha256(json.dumps([FORMAT, sys.version, distributions.listing_key(),
                                   sorted((k, v) for k, v in os.environ.items() if k.startswith("HERMES_")
                                          and k != ENV)]).encode())
    for root in _roots():
        h.update(json.dumps([root.name, user_cache.listing(root)]).encode())
    return h.hexdigest()


def _ours(modules: Iterable[str]) -> bool:
    return all(m.split(".")[0] in PROJECT for m in modules)


def remembered(kind: str, what: str, modules: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()`` (plain JSON data), read back when ``kind`` and ``what`` were computed under the same
    :func:`code_key`; computed every time where turned off or when a module of ``modules`` (those of the parts
    ``what`` names) is not the project's."""
    where = folder() if _on and _ours(modules) else None
    if where is None:
        return compute()
    name = hashlib.sha256("\0".join((code_key(), kind, what)).encode()).hexdigest()[:32]
    path = where / f"{name}.json"
    try:
        return json.loads(path.read_text())["value"]
    except Exception:  # noqa: BLE001 - missing, torn or of another format: computed again
        pass
    value = compute()
    _store(path, value)
    return value


def _store(path: Path, value: Any) -> None:
    try:
        data = json.dumps({"value": value}).encode()
    except (TypeError, ValueError):  # not JSON: nothing kept
        return
    user_cache.store(path, data, KEEP)
