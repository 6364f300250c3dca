"""Which repository class a name or expression holds an instance of, inferred soundly with ``ast``.

Known: a constructor call (``Cls(...)``, ``mod.Cls(...)``), a type annotation naming one
repository class (``r: Radar``, ``"Radar"``, ``Optional[Radar]``, ``Radar | None``), and a
variable (function-local, parameter or module-level) whose every binding in its scope is one of
those for the same class (``= None`` bindings aside). Any other binding (a loop or ``with``
target, tuple unpacking, ``+=``, an unannotated parameter, another class, a ``global`` /
``nonlocal`` elsewhere) makes the type unknown: nothing is guessed.
"""
from __future__ import annotations

import ast
from typing import Union

from hermes_eval.querysets.python.index import ClassInfo, ModuleIndex, ModuleInfo
from hermes_eval.querysets.python.scopes import FUNCS, FileView

_NONE = "None"  # a binding to the ``None`` literal: compatible with any class
_Bound = Union[ClassInfo, str, None]  # a class, _NONE, or None for unknown
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _flatten_union(expr: ast.expr) -> list[ast.expr]:
    """The members of ``A | B | None``."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return _flatten_union(expr.left) + _flatten_union(expr.right)
    return [expr]


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _tail(expr: ast.expr) -> str | None:
    """``Optional`` for ``Optional`` or ``typing.Optional``."""
    if isinstance(expr, ast.Name):
        return expr.id
    return expr.attr if isinstance(expr, ast.Attribute) else None


def _only_member(index: ModuleIndex, mod: ModuleInfo, members: list[ast.expr], depth: int) -> ClassInfo | None:
    rest = [m for e in members for m in _flatten_union(e) if not _is_none(m)]
    return annotation_class(index, mod, rest[0], depth + 1) if len(rest) == 1 else None


def annotation_class(index: ModuleIndex, mod: ModuleInfo, expr: ast.expr | None, depth: int = 0) -> ClassInfo | None:
    """The one repository class an annotation names, optional or not; None otherwise."""
    if expr is None or depth > 4:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            parsed = ast.parse(expr.value.strip(), mode="eval").body
        except SyntaxError:
            return None
        return annotation_class(index, mod, parsed, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        return _only_member(index, mod, [expr], depth)
    if isinstance(expr, ast.Subscript):
        head = _tail(expr.value)
        members = list(expr.slice.elts) if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        if head == "Optional" or (head == "Union" and members):
            return _only_member(index, mod, members, depth)
        return None
    if isinstance(expr, (ast.Name, ast.Attribute)):
        obj = index.expression(mod, expr)
        return obj if isinstance(obj, ClassInfo) else None
    return None


def constructed_class(index: ModuleIndex, view: FileView, expr: ast.expr) -> ClassInfo | None:
    """The class ``expr`` constructs when it is ``Cls(...)`` or ``mod.Cls(...)`` (module-level names)."""
    if not isinstance(expr, ast.Call):
        return None
    root = expr.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or view.is_local(root):
        return None
    obj = index.expression(view.mod, expr.func)
    return obj if isinstance(obj, ClassInfo) else None


def _scope_bindings(view: FileView, scope: ast.AST) -> dict[str, list[ast.AST]]:
    """Every node binding each name in ``scope`` itself (nested defs' bodies are other scopes);
    a ``global`` / ``nonlocal`` anywhere inside counts as a binding of unknown type."""
    out: dict[str, list[ast.AST]] = {}
    if isinstance(scope, FUNCS):
        a = scope.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
            if arg is not None:
                out.setdefault(arg.arg, []).append(arg)
        stack: list[ast.AST] = list(scope.body) if isinstance(scope.body, list) else [scope.body]
    else:
        stack = list(scope.body)
    while stack:
        node = stack.pop()
        names: list[str] = []
        if isinstance(node, _SCOPES):
            out.setdefault(node.name, []).append(node)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names = [node.id]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names = [node.name]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names = [node.name]
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names = [node.rest]
        for name in names:
            out.setdefault(name, []).append(node)
        stack.extend(ast.iter_child_nodes(node))
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                out.setdefault(name, []).append(node)
    return out


def _binding_class(index: ModuleIndex, view: FileView, node: ast.AST) -> _Bound:
    """What one binding puts in its name: a class, ``None`` (_NONE), or unknown (None)."""
    if isinstance(node, ast.arg):
        return annotation_class(index, view.mod, node.annotation)
    if not isinstance(node, ast.Name):
        return None
    parent = view.parent.get(node)
    if isinstance(parent, ast.AnnAssign) and parent.target is node:
        return annotation_class(index, view.mod, parent.annotation) or (
            _value_class(index, view, parent.value) if parent.value is not None else None)
    if isinstance(parent, ast.Assign) and any(t is node for t in parent.targets):
        return _value_class(index, view, parent.value)
    if isinstance(parent, ast.NamedExpr) and parent.target is node:
        return _value_class(index, view, parent.value)
    return None


def _value_class(index: ModuleIndex, view: FileView, value: ast.expr) -> _Bound:
    return _NONE if _is_none(value) else constructed_class(index, view, value)


def _scope_class(index: ModuleIndex, view: FileView, scope: ast.AST, name: str) -> ClassInfo | None:
    key = ("bindings", scope)
    if key not in view.cache:
        view.cache[key] = _scope_bindings(view, scope)
    found: dict[int, ClassInfo] = {}
    for node in view.cache[key].get(name, []):
        bound = _binding_class(index, view, node)
        if bound is None:
            return None
        if isinstance(bound, ClassInfo):
            found[id(bound)] = bound
    return next(iter(found.values())) if len(found) == 1 else None


def _in_class_body(view: FileView, node: ast.AST) -> bool:
    """Whether ``node`` is evaluated in a class body (its names are class attributes there)."""
    cur = view.parent.get(node)
    while cur is not None and not isinstance(cur, FUNCS + (ast.Module,)):
        if isinstance(cur, ast.ClassDef):
            return True
        cur = view.parent.get(cur)
    return False


def name_class(index: ModuleIndex, view: FileView, node: ast.Name) -> ClassInfo | None:
    """The repository class the variable ``node`` holds an instance of, when certain."""
    scope = view.binding_function(node)
    if scope is None:
        if _in_class_body(view, node) or index.name(view.mod, node.id) is not None:
            return None
        scope = view.mod.tree
    key = ("instance", scope, node.id)
    if key not in view.cache:
        view.cache[key] = _scope_class(index, view, scope, node.id)
    return view.cache[key]
