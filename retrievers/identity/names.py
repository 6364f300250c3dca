"""Configs in named form: every ``_target_`` written as its part's declared name, and back.

The named form is what a config hash, a stored query set's generator check and the sameness tool
compare, so a part that moves or is renamed names the same runs. The way back finds the part a name
(or an import path that no longer imports) denotes, so an old config still builds.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from retrievers.identity.declare import ATTRIBUTE, declared

# the packages whose modules declare parts (imported only to find a name no path resolves)
PART_PACKAGES = ("retrievers", "hermes_eval.querysets.generators")


@lru_cache(maxsize=None)
def load_target(target: str) -> Any:
    """The object an import path names (``pkg.mod.Class`` or ``pkg.mod.Class.method``), or None."""
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


@lru_cache(maxsize=None)
def name_of(target: str) -> str:
    """The declared name of the part at ``target``; ``target`` itself when nothing there declares one. A part
    whose module is not imported yet is read from its source (:func:`declared_in_source`): a config hash names
    every part of the config, the embedder of a BM25 run too, whose import took about 8 ms."""
    module, _, attr = target.rpartition(".")
    if module and module not in sys.modules:
        found = declared_in_source(module).get(attr)
        if found is not None:
            return found
    obj = load_target(target)
    ident = declared(obj) if obj is not None else None
    return ident.name if ident is not None else target


@lru_cache(maxsize=None)
def declared_in_source(module: str) -> dict[str, str]:
    """Top-level class or function -> the name its ``@declare("...")`` gives it, read from ``module``'s source
    without importing it (its package is imported to find it); empty where there is no such source. Only a
    literal name in a direct ``declare`` call counts: any other form is left to the import."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError, AttributeError):
        return {}
    if spec is None or not (spec.origin or "").endswith(".py"):
        return {}
    try:
        tree = ast.parse(Path(spec.origin).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            for deco in node.decorator_list:
                if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Name) and deco.func.id == "declare"
                        and deco.args and isinstance(deco.args[0], ast.Constant) and isinstance(deco.args[0].value, str)):
                    out[node.name] = deco.args[0].value
    return out


@lru_cache(maxsize=1)
def declared_parts() -> tuple[tuple[str, str], ...]:
    """(declared name, current import path) of every part the part packages declare, in module order."""
    import pkgutil  # only when a name no import path resolves is looked for

    found: list[tuple[str, str]] = []
    for package in PART_PACKAGES:
        try:
            root = importlib.import_module(package)
        except ImportError:
            continue
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            try:
                module = importlib.import_module(info.name)
            except Exception:  # noqa: BLE001 - an optional backend whose library is absent declares nothing here
                continue
            for value in vars(module).values():
                ident = getattr(value, "__dict__", {}).get(ATTRIBUTE)
                if ident is not None and getattr(value, "__module__", None) == module.__name__:
                    found.append((ident.name, f"{module.__name__}.{value.__qualname__}"))
    return tuple(found)


@lru_cache(maxsize=1)
def _by_name() -> dict[str, str]:
    return dict(declared_parts())


@lru_cache(maxsize=None)
def target_of(target: str) -> str:
    """The import path to build ``target`` from: itself when it imports, else the part declaring it as
    its name (a config written before its part moved), else itself (the builder names the error)."""
    if load_target(target) is not None:
        return target
    return _by_name().get(target, target)


def _map(node: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(node, dict):
        return {k: (fn(v) if k == "_target_" and isinstance(v, str) else _map(v, fn)) for k, v in node.items()}
    if isinstance(node, list):
        return [_map(v, fn) for v in node]
    return node


def named(node: Any) -> Any:
    """A plain config (dicts and lists) with every ``_target_`` as its part's declared name."""
    return _map(node, name_of)


def buildable(node: Any) -> Any:
    """A plain config with every ``_target_`` an import path that builds today."""
    return _map(node, target_of)


def targets(node: Any) -> list[Any]:
    """The objects every ``_target_`` in a (nested) plain config names, in order (None: not importable)."""
    out: list[Any] = []
    if isinstance(node, dict):
        if isinstance(node.get("_target_"), str):
            out.append(load_target(target_of(node["_target_"])))
        for value in node.values():
            out.extend(targets(value))
    elif isinstance(node, list):
        for value in node:
            out.extend(targets(value))
    return out
