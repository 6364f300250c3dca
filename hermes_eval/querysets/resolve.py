"""Which repository definitions the code on some lines of a file uses, resolved with ``ast``.

Handled: local functions and classes, ``from pkg.mod import f`` (relative too), ``import
pkg.mod as m; m.f()``, re-exports through ``__init__``, ``Class.method``, ``self.method()`` /
``cls.method()`` inside a class (bases searched) and ``super().method()``. Module-level
variables and attributes of instances other than ``self`` are not followed (their type is
unknown without running the code).
"""
from __future__ import annotations

import ast

from hermes_eval.querysets.pyindex import ClassInfo, Definition, ModuleIndex, ModuleInfo, Resolved
from hermes_eval.querysets.scopes import FileView, file_view

_SELF = ("self", "cls")


def enclosing_class(mod: ModuleInfo, line: int) -> ClassInfo | None:
    for cls in mod.classes.values():
        if cls.node.lineno <= line <= cls.node.end_lineno:
            return cls
    return None


def _as_definition(obj: Resolved | None) -> Definition | None:
    if isinstance(obj, Definition):
        return obj
    if isinstance(obj, ClassInfo):
        return obj.definition
    return None


def _walk(index: ModuleIndex, obj: Resolved | None, attrs: list[str]) -> Definition | None:
    """The deepest definition reached by applying ``attrs`` to ``obj``."""
    best = _as_definition(obj)
    for attr in attrs:
        if obj is None or isinstance(obj, Definition):
            break
        obj = index.attribute(obj, attr)
        best = _as_definition(obj) or best
    return best


def _resolve_name(index: ModuleIndex, mod: ModuleInfo, view: FileView, node: ast.Name) -> Definition | None:
    attrs = view.chain(node)
    if node.id not in _SELF and node.id != "super" and view.is_local(node):
        return None
    if node.id in _SELF:
        cls = enclosing_class(mod, node.lineno)
        if cls is None or not attrs:
            return None
        return index.method(cls, attrs[0])
    if node.id == "super":
        call = view.parent.get(node)
        cls = enclosing_class(mod, node.lineno)
        if cls is None or not isinstance(call, ast.Call) or call.func is not node:
            return None
        up = view.chain(call)
        if not up:
            return None
        for base in index.bases(cls):
            found = index.method(base, up[0])
            if found is not None:
                return found
        return None
    return _walk(index, index.name(mod, node.id), attrs)


def _is_called(view: FileView, node: ast.Name) -> bool:
    """Whether the expression ``node`` heads (``f``, ``m.f``, ``super().f``) is the callee of a call."""
    top: ast.AST = node
    if node.id == "super" and isinstance(view.parent.get(node), ast.Call):
        top = view.parent[node]
    while isinstance(view.parent.get(top), ast.Attribute) and view.parent[top].value is top:
        top = view.parent[top]
    call = view.parent.get(top)
    return isinstance(call, ast.Call) and call.func is top


def _definitions(index: ModuleIndex, path: str, start: int, end: int, calls_only: bool) -> list[Definition]:
    mod = index.by_path.get(path)
    if mod is None:
        return []
    view = file_view(index, mod)
    found: dict[tuple[str, str], Definition] = {}
    for node in view.names:
        if start <= node.lineno <= end and (not calls_only or _is_called(view, node)):
            d = _resolve_name(index, mod, view, node)
            if d is not None:
                found.setdefault((d.path, d.qualname), d)
    return [found[k] for k in sorted(found)]


def used_definitions(index: ModuleIndex, path: str, start: int, end: int) -> list[Definition]:
    """Repository definitions referenced by names that start on lines ``start``..``end`` of ``path``."""
    return _definitions(index, path, start, end, calls_only=False)


def called_definitions(index: ModuleIndex, path: str, start: int, end: int) -> list[Definition]:
    """Repository definitions called (as the callee) on lines ``start``..``end`` of ``path``."""
    return _definitions(index, path, start, end, calls_only=True)
