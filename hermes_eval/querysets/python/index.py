"""An ``ast`` index of one Python repository: modules, their definitions, classes and imports.

Module names follow the package rule (a folder is a package when it holds ``__init__.py``), so
``repo/src/pkg/mod.py`` is ``pkg.mod``; an import that matches no module exactly falls back to
the unique module whose dotted name ends with it (namespace packages, odd layouts).
"""
from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Iterable, Union

from hermes_eval.querysets.python.definitions import DEF_TYPES, def_start
from hermes_eval.core import Span


@dataclass(frozen=True)
class Definition:
    """A repository-defined function, method or class and the spans that define it."""

    path: str
    qualname: str
    kind: str  # function | method | class
    spans: tuple[Span, ...]


@dataclass
class ClassInfo:
    module: "ModuleInfo"
    node: ast.ClassDef
    definition: Definition
    methods: dict[str, Definition] = field(default_factory=dict)


@dataclass(frozen=True)
class Binding:
    """What an import binds a local name to: a module, or attribute ``attr`` of module ``module``."""

    module: str
    attr: str | None = None


@dataclass
class ModuleInfo:
    name: str
    path: str
    is_package: bool
    tree: ast.Module
    defs: dict[str, Definition] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    imports: dict[str, Binding] = field(default_factory=dict)


Resolved = Union[ModuleInfo, ClassInfo, Definition, str]  # str: a module name not in the index


def module_name(path: str, paths: set[str]) -> tuple[str, bool]:
    """(dotted module name, is package) for a ``.py`` path by the ``__init__.py`` rule."""
    p = PurePosixPath(path)
    is_pkg = p.name == "__init__.py"
    parts = [] if is_pkg else [p.stem]
    folder = p.parent
    while str(folder) not in ("", ".") and str(folder / "__init__.py") in paths:
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts) or p.parent.name, is_pkg


def _class_definition(path: str, qualname: str, node: ast.ClassDef) -> Definition:
    """A class is defined by its header (through docstring and attributes) and ``__init__``."""
    methods = [n for n in node.body if isinstance(n, DEF_TYPES)]
    start = def_start(node)
    header_end = def_start(methods[0]) - 1 if methods else node.end_lineno
    spans = [Span(path, start, max(start, header_end))]
    init = next((m for m in methods if m.name == "__init__"), None)
    if init is not None and def_start(init) > header_end:
        spans.append(Span(path, def_start(init), init.end_lineno))
    return Definition(path, qualname, "class", tuple(spans))


def _import_bindings(mod: ModuleInfo) -> dict[str, Binding]:
    """Local name -> binding for every import in the file (function-level ones too)."""
    out: dict[str, Binding] = {}
    base_parts = mod.name.split(".") if mod.is_package else mod.name.split(".")[:-1]
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = Binding(a.name)
                else:
                    out.setdefault(a.name.split(".")[0], Binding(a.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                keep = len(base_parts) - (node.level - 1)
                parts = base_parts[:max(keep, 0)] + ([node.module] if node.module else [])
                base = ".".join(parts)
            else:
                base = node.module or ""
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = Binding(base, a.name)
    return out


class ModuleIndex:
    """Modules of one repository by dotted name, with resolution through imports."""

    def __init__(self, files: Iterable[tuple[str, str]]):
        files = [(p, t) for p, t in files if p.endswith(".py")]
        paths = {p for p, _ in files}
        self.modules: dict[str, ModuleInfo] = {}
        self.by_path: dict[str, ModuleInfo] = {}
        self.derived: dict = {}  # per-module data computed on demand (resolve.py's views)
        for path, text in sorted(files):
            try:
                with warnings.catch_warnings():  # a corpus file's own invalid escapes are not ours to report
                    warnings.simplefilter("ignore", SyntaxWarning)
                    warnings.simplefilter("ignore", DeprecationWarning)
                    tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            name, is_pkg = module_name(path, paths)
            mod = ModuleInfo(name, path, is_pkg, tree)
            self._collect(mod)
            self.by_path[path] = mod
            self.modules.setdefault(name, mod)

    @staticmethod
    def _collect(mod: ModuleInfo) -> None:
        for node in mod.tree.body:
            if isinstance(node, ast.ClassDef):
                cls = ClassInfo(mod, node, _class_definition(mod.path, node.name, node))
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        cls.methods[m.name] = Definition(mod.path, f"{node.name}.{m.name}", "method",
                                                         (Span(mod.path, def_start(m), m.end_lineno),))
                mod.classes[node.name] = cls
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mod.defs[node.name] = Definition(mod.path, node.name, "function",
                                                 (Span(mod.path, def_start(node), node.end_lineno),))
        mod.imports = _import_bindings(mod)

    def module(self, dotted: str) -> ModuleInfo | None:
        """The module named ``dotted``, else the unique one whose name ends with ``.dotted``."""
        if not dotted:
            return None
        if dotted in self.modules:
            return self.modules[dotted]
        key = ("suffix", dotted)
        if key not in self.derived:
            hits = [m for n, m in self.modules.items() if n.endswith("." + dotted)]
            self.derived[key] = hits[0] if len(hits) == 1 else None
        return self.derived[key]

    def member(self, mod: ModuleInfo, name: str, depth: int = 0) -> Resolved | None:
        """Attribute ``name`` of module ``mod``: a class, function, submodule or re-export."""
        if depth > 8:
            return None
        if name in mod.classes:
            return mod.classes[name]
        if name in mod.defs:
            return mod.defs[name]
        if name in mod.imports:
            return self.follow(mod.imports[name], depth + 1)
        sub = self.module(f"{mod.name}.{name}")
        return sub

    def follow(self, b: Binding, depth: int = 0) -> Resolved | None:
        """What an import binding refers to in this repository (a str for an unknown module)."""
        if b.attr is None:
            return self.module(b.module) or b.module
        mod = self.module(b.module)
        if mod is not None:
            found = self.member(mod, b.attr, depth)
            if found is not None:
                return found
        return self.module(f"{b.module}.{b.attr}" if b.module else b.attr)

    def attribute(self, obj: Resolved, name: str, depth: int = 0) -> Resolved | None:
        """``obj.name`` for a module, an unindexed module name or a class (methods via bases)."""
        if isinstance(obj, ModuleInfo):
            return self.member(obj, name)
        if isinstance(obj, str):
            return self.module(f"{obj}.{name}") or f"{obj}.{name}"
        if isinstance(obj, ClassInfo):
            return self.method(obj, name, depth)
        return None

    def method(self, cls: ClassInfo, name: str, depth: int = 0) -> Definition | None:
        """Method ``name`` of ``cls`` or, failing that, of its repository-defined bases."""
        if name in cls.methods:
            return cls.methods[name]
        if depth > 5:
            return None
        for base in self.bases(cls):
            found = self.method(base, name, depth + 1)
            if found is not None:
                return found
        return None

    def bases(self, cls: ClassInfo) -> list[ClassInfo]:
        out = []
        for expr in cls.node.bases:
            obj = self.expression(cls.module, expr)
            if isinstance(obj, ClassInfo) and obj is not cls:
                out.append(obj)
        return out

    def name(self, mod: ModuleInfo, name: str) -> Resolved | None:
        """A bare name at module scope: a local definition or an import."""
        if name in mod.classes:
            return mod.classes[name]
        if name in mod.defs:
            return mod.defs[name]
        if name in mod.imports:
            return self.follow(mod.imports[name])
        return None

    def expression(self, mod: ModuleInfo, expr: ast.expr) -> Resolved | None:
        """A ``Name`` or dotted ``Attribute`` expression resolved at module scope."""
        chain: list[str] = []
        while isinstance(expr, ast.Attribute):
            chain.insert(0, expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        obj = self.name(mod, expr.id)
        for attr in chain:
            if obj is None:
                return None
            obj = self.attribute(obj, attr)
        return obj
