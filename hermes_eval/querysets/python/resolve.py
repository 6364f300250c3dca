"""Which repository definitions the code on some lines of a file uses, resolved with ``ast``.

Handled: local functions and classes, ``from pkg.mod import f`` (relative too), ``import
pkg.mod as m; m.f()``, re-exports through ``__init__``, ``Class.method``, ``self.method()`` /
``cls.method()`` inside a class (bases searched), ``super().method()``, and methods of
instances whose class is certain (``instances.py``): ``Cls(...).method()``, a variable bound
only to ``Cls(...)`` (``radar = Radar(); radar.plot()``, function-local or module-level) and a
parameter annotated with the class (``def f(r: Radar)``, ``Optional[Radar]``, ``"Radar"``).
Instance attributes (``self.x.m()``), return values and variables of uncertain class (bound to
different classes, loop targets, unannotated parameters) are not followed.
"""
from __future__ import annotations

import ast

from hermes_eval.querysets.python.instances import name_class
from hermes_eval.querysets.python.index import ClassInfo, Definition, ModuleIndex, ModuleInfo, Resolved
from hermes_eval.querysets.python.scopes import FileView, file_view

_SELF = ("self", "cls")
Use = tuple[Definition, bool]  # a definition and whether the code calls it


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


def _walk(index: ModuleIndex, obj: Resolved | None, attrs: list[str]) -> tuple[Definition | None, Resolved | None]:
    """(the deepest definition reached by applying ``attrs`` to ``obj``, the object all of them reach)."""
    best = _as_definition(obj)
    for attr in attrs:
        if obj is None or isinstance(obj, Definition):
            return best, None
        obj = index.attribute(obj, attr)
        best = _as_definition(obj) or best
    return best, obj


def _instance_method(index: ModuleIndex, view: FileView, cls: ClassInfo | None, node: ast.AST) -> list[Use]:
    """``node.m`` where ``node`` holds an instance of ``cls``: method ``m`` (bases searched)."""
    attrs = view.chain(node)
    found = index.method(cls, attrs[0]) if cls is not None and attrs else None
    return [] if found is None else [(found, view.is_callee(view.top(node)))]


def _is_called(view: FileView, node: ast.Name) -> bool:
    """Whether the expression ``node`` heads (``f``, ``m.f``, ``super().f``) is the callee of a call."""
    top: ast.AST = node
    if node.id == "super" and isinstance(view.parent.get(node), ast.Call):
        top = view.parent[node]
    return view.is_callee(view.top(top))


def _resolve_name(index: ModuleIndex, mod: ModuleInfo, view: FileView, node: ast.Name) -> list[Use]:
    """The definitions the expression headed by ``node`` uses, each with whether it is called."""
    attrs = view.chain(node)
    called = _is_called(view, node)
    if node.id in _SELF:
        cls = enclosing_class(mod, node.lineno)
        found = index.method(cls, attrs[0]) if cls is not None and attrs else None
        return [] if found is None else [(found, called)]
    if node.id == "super":
        call = view.parent.get(node)
        cls = enclosing_class(mod, node.lineno)
        up = view.chain(call) if call is not None else []
        if cls is None or not isinstance(call, ast.Call) or call.func is not node or not up:
            return []
        found = next((m for m in (index.method(b, up[0]) for b in index.bases(cls)) if m is not None), None)
        return [] if found is None else [(found, called)]
    obj = None if view.is_local(node) else index.name(mod, node.id)
    if obj is None:  # a variable: follow it only when its class is certain
        return _instance_method(index, view, name_class(index, view, node), node)
    best, reached = _walk(index, obj, attrs)
    uses = [] if best is None else [(best, called)]
    top = view.top(node)
    if isinstance(reached, ClassInfo) and view.is_callee(top):  # Cls(...).method()
        uses += _instance_method(index, view, reached, view.parent[top])
    return uses


def _definitions(index: ModuleIndex, path: str, start: int, end: int, calls_only: bool) -> list[Definition]:
    mod = index.by_path.get(path)
    if mod is None:
        return []
    view = file_view(index, mod)
    found: dict[tuple[str, str], Definition] = {}
    for node in view.names:
        if start <= node.lineno <= end:
            for d, called in _resolve_name(index, mod, view, node):
                if called or not calls_only:
                    found.setdefault((d.path, d.qualname), d)
    return [found[k] for k in sorted(found)]


def used_definitions(index: ModuleIndex, path: str, start: int, end: int) -> list[Definition]:
    """Repository definitions referenced by names that start on lines ``start``..``end`` of ``path``."""
    return _definitions(index, path, start, end, calls_only=False)


def called_definitions(index: ModuleIndex, path: str, start: int, end: int) -> list[Definition]:
    """Repository definitions called (as the callee) on lines ``start``..``end`` of ``path``."""
    return _definitions(index, path, start, end, calls_only=True)
