"""Code identity for cache keys: a content hash of the source that makes an artifact.

``code_identity("retrievers.chunkers.python_ast")`` hashes that module's source, every project
module it imports (``retrievers.*``, ``hermes_eval.*``, followed transitively, imports inside
functions included), the Python version and the installed version of every third-party
distribution those modules import. A cached chunk list, vector or index keyed with it is
never served to other code: editing a chunker, tokenizer, backend or embedder wrapper, or
upgrading a library it calls, changes the key.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import platform
import sys
from functools import lru_cache
from importlib import metadata
from typing import Any, Iterable

PROJECT = ("retrievers", "hermes_eval")


def _is_project(name: str) -> bool:
    return name.split(".")[0] in PROJECT


@lru_cache(maxsize=None)
def _spec_origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    return spec.origin if spec is not None and spec.origin not in (None, "built-in", "frozen") else None


def _resolve(node: ast.ImportFrom, module: str, is_pkg: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


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

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                note(alias.name)
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve(node, name, is_pkg)
            note(mod)
            if _is_project(mod):  # `from retrievers.sparse import terms` imports a submodule
                project.update(f"{mod}.{a.name}" for a in node.names if _spec_origin(f"{mod}.{a.name}"))
    return hashlib.sha256(source).hexdigest(), frozenset(project), frozenset(external)


@lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    return metadata.packages_distributions()


def library_version(top_level: str) -> str:
    """The installed version of the distribution(s) providing import name ``top_level``."""
    versions = []
    for dist in sorted(_distributions().get(top_level, [])):
        try:
            versions.append(f"{dist}=={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            continue
    if not versions:  # an import name that is also a distribution name (e.g. lazy extras)
        try:
            versions.append(f"{top_level}=={metadata.version(top_level)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{top_level}==absent")
    return ",".join(versions)


def closure(modules: Iterable[str]) -> tuple[dict[str, str], set[str]]:
    """Source hash of every project module reachable from ``modules``, and the libraries they import."""
    todo, seen, libs = list(modules), {}, set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        sha, project, external = _module(name)
        seen[name] = sha
        libs |= external
        todo.extend(project - seen.keys())
    return seen, libs


@lru_cache(maxsize=None)
def _identity(modules: tuple[str, ...], libs: tuple[str, ...]) -> str:
    sources, imported = closure(modules)
    versions = {lib: library_version(lib) for lib in sorted(imported | set(libs))}
    blob = json.dumps({"python": platform.python_version(), "sources": sources, "libs": versions},
                      sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def code_identity(*modules: str, libs: Iterable[str] = ()) -> str:
    """A 16-hex-digit hash of ``modules``' source closure and library versions (``libs`` adds
    libraries called indirectly, e.g. ``transformers`` under sentence-transformers)."""
    return _identity(tuple(sorted(set(modules))), tuple(sorted(set(libs))))


def target_modules(node: Any) -> set[str]:
    """The modules of every ``_target_`` in a (nested) config mapping: the code a config builds."""
    out: set[str] = set()
    if isinstance(node, dict):
        target = node.get("_target_")
        if isinstance(target, str):
            parts = target.split(".")
            for cut in range(len(parts) - 1, 0, -1):  # `pkg.mod.Class` or `pkg.mod.Class.method`
                if _spec_origin(".".join(parts[:cut])):
                    out.add(".".join(parts[:cut]))
                    break
        for value in node.values():
            out |= target_modules(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            out |= target_modules(value)
    return out


def config_code_identity(node: Any, *modules: str) -> str:
    """The code identity of what ``node`` (a config with ``_target_``s) builds, plus ``modules``."""
    return code_identity(*target_modules(node), *modules)
