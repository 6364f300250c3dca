"""The third-party libraries a part's modules import (followed through the project's own modules),
with their installed versions: upgrading a library a part calls changes the part's key."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from functools import lru_cache
from typing import Iterable

from retrievers.identity import distributions
from retrievers.identity.parsed_imports import Store

PROJECT = ("retrievers", "hermes_eval")
_STORE = Store()  # each module's import statements, parsed once per content (kept on disk)


def _is_project(name: str) -> bool:
    return name.split(".")[0] in PROJECT


@lru_cache(maxsize=None)
def _spec_origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    return spec.origin if spec is not None and spec.origin not in (None, "built-in", "frozen") else None


def _resolve(level: int, imported: str, module: str, is_pkg: bool) -> str:
    """The absolute name ``from <level dots><imported> import ...`` in ``module`` names."""
    if not level:
        return imported
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, imported] if imported else base)


@lru_cache(maxsize=None)
def _module(name: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """(sha256 of the source, project modules imported, top-level third-party names imported)."""
    origin = _spec_origin(name)
    if origin is None or not origin.endswith(".py"):
        return "missing", frozenset(), frozenset()
    with open(origin, "rb") as fh:
        source = fh.read()
    is_pkg = origin.endswith("__init__.py")
    project: set[str] = set()
    external: set[str] = set()

    def note(mod: str) -> None:
        if _is_project(mod):
            project.add(mod)
        elif mod and mod.split(".")[0] not in sys.stdlib_module_names:
            external.add(mod.split(".")[0])

    digest = hashlib.sha256(source).hexdigest()
    for statement in _STORE.statements(source, digest):
        if statement[0] == "import":
            note(statement[1])
        else:
            _, level, module, names = statement
            mod = _resolve(level, module, name, is_pkg)
            note(mod)
            if _is_project(mod):  # `from retrievers.sparse import terms` imports a submodule
                project.update(f"{mod}.{a}" for a in names if _spec_origin(f"{mod}.{a}"))
    return digest, frozenset(project), frozenset(external)


def closure(modules: Iterable[str]) -> tuple[dict[str, str], set[str]]:
    """Source hash of every project module reachable from ``modules``, and the libraries they import
    (the source hashes key only what is cheap to rebuild, such as a board; never a part's results)."""
    todo, seen, libs = list(modules), {}, set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        sha, project, external = _module(name)
        seen[name] = sha
        libs |= external
        todo.extend(project - seen.keys())
    _STORE.flush()
    return seen, libs


@lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    return distributions.packages_distributions()


def library_version(top_level: str) -> str:
    """The installed version of the distribution(s) providing import name ``top_level``."""
    versions = []
    for dist in sorted(_distributions().get(top_level, [])):
        got = distributions.installed(dist)
        if got is not None:
            versions.append(f"{dist}=={got}")
    if not versions:  # an import name that is also a distribution name (e.g. lazy extras)
        versions.append(f"{top_level}=={distributions.installed(top_level) or 'absent'}")
    return ",".join(versions)


@lru_cache(maxsize=None)
def _versions(modules: tuple[str, ...], extra: tuple[str, ...]) -> tuple[str, ...]:
    from retrievers.identity.probe_memo import remembered

    def compute() -> list[str]:
        _, libs = closure(modules)
        return [library_version(lib) for lib in sorted(libs | set(extra))]

    return tuple(remembered("libraries", json.dumps([modules, extra]), modules, compute))


def library_versions(modules: Iterable[str], extra: Iterable[str] = ()) -> tuple[str, ...]:
    """``dist==version`` of every library ``modules`` import (``extra`` adds ones called indirectly,
    e.g. ``transformers`` under sentence-transformers), sorted."""
    return _versions(tuple(sorted(set(modules))), tuple(sorted(set(extra))))
