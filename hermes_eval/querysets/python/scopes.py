"""One parsed module's parent links, loaded names and which function scope binds each name."""
from __future__ import annotations

import ast

from hermes_eval.querysets.python.index import ModuleIndex, ModuleInfo

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def local_names(fn: ast.AST) -> frozenset[str]:
    """Names a function binds itself (parameters, assignments, loop/with/except targets, nested
    defs); names it imports stay out, they resolve through the import."""
    a = fn.args
    names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    names.update(x.arg for x in (a.vararg, a.kwarg) if x is not None)
    declared: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    return frozenset(names - declared)


class FileView:
    """Parents, ``Name`` nodes and function-local names of one module, built once per module."""

    def __init__(self, mod: ModuleInfo):
        self.mod = mod
        self.parent: dict[ast.AST, ast.AST] = {}
        self.names: list[ast.Name] = []
        self._locals: dict[ast.AST, frozenset[str]] = {}
        self.cache: dict = {}  # per-scope facts computed on demand (instances.py's bindings)
        for node in ast.walk(mod.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.names.append(node)

    def binding_function(self, node: ast.Name) -> ast.AST | None:
        """The innermost enclosing function that binds ``node.id`` (None: module or builtin)."""
        cur = self.parent.get(node)
        while cur is not None:
            if isinstance(cur, FUNCS):
                if cur not in self._locals:
                    self._locals[cur] = local_names(cur)
                if node.id in self._locals[cur]:
                    return cur
            cur = self.parent.get(cur)
        return None

    def is_local(self, node: ast.Name) -> bool:
        """Whether an enclosing function binds ``node.id`` (so it is not the module-level symbol)."""
        return self.binding_function(node) is not None

    def chain(self, node: ast.AST) -> list[str]:
        """Attribute names applied to ``node``: ``m.f.g`` from the ``m`` Name gives [f, g]."""
        out = []
        cur = node
        while isinstance(self.parent.get(cur), ast.Attribute) and self.parent[cur].value is cur:
            cur = self.parent[cur]
            out.append(cur.attr)
        return out

    def top(self, node: ast.AST) -> ast.AST:
        """The outermost ``Attribute`` applied to ``node`` (``node`` itself when there is none)."""
        while isinstance(self.parent.get(node), ast.Attribute) and self.parent[node].value is node:
            node = self.parent[node]
        return node

    def is_callee(self, node: ast.AST) -> bool:
        """Whether ``node`` is the function a ``Call`` calls."""
        call = self.parent.get(node)
        return isinstance(call, ast.Call) and call.func is node


def file_view(index: ModuleIndex, mod: ModuleInfo) -> FileView:
    """The cached view of ``mod``."""
    view = index.derived.get(("view", mod.path))
    if view is None:
        view = index.derived[("view", mod.path)] = FileView(mod)
    return view
