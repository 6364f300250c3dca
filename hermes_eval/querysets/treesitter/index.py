"""A tree-sitter index of one repository's Go, Rust, JavaScript, TypeScript, Java and C files: which
definition a name means in a file, and the methods of a type.

Scopes: a Go name is visible across its package (the ``.go`` files of one folder with the same
``package`` clause); a Rust or JS/TS name across its file (a Rust file is a module), plus what
the file imports (``ts_imports.py``), followed through re-exports up to ``MAX_HOPS`` files.
Methods: Go methods by receiver type within the package; JS/TS class methods within the file;
Rust ``impl`` methods by type name within the crate, only when one type of that name is defined
in the crate (otherwise which type an ``impl`` is for would be a guess). Java and C as
``languages.toml`` declares (``scope``): a Java name across its package (the files of one folder with
the same ``package`` declaration), methods by class within it; a C name across its file, else across
the repository when only one file defines it (C has one global namespace; a name defined in several
files, ``static`` ones say, would be a guess).
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Union

from hermes_eval.core.corpus import CorpusFile
from hermes_eval.corpus.grammars import text_of
from hermes_eval.querysets.treesitter.definitions import TsDef
from hermes_eval.querysets.treesitter.imports import Import, js_exports, js_imports, rust_imports, rust_module_files
from hermes_eval.querysets.treesitter.table import TABLE

MAX_HOPS = 4


@dataclass(frozen=True)
class ModuleRef:
    """A name bound to a whole module (``import * as ns``, ``const m = require(...)``, ``use crate::m``)."""

    path: str


Meaning = Union[TsDef, ModuleRef]


@dataclass
class FileInfo:
    file: CorpusFile
    root: object
    defs: list[TsDef]
    scope: str  # key of the scope its top-level names live in
    imports: dict[str, Import]
    exports: dict[str, str]


def _package(f: CorpusFile, root, clause_type: str) -> str:
    clause = next((c for c in root.named_children if c.type == clause_type), None)
    name = text_of(clause.named_children[0]) if clause is not None and clause.named_children else ""
    return f"{posixpath.dirname(f.path)}#{name}"


def _go_package(f: CorpusFile, root) -> str:
    return _package(f, root, "package_clause")


def _declared_scope(spec: dict):
    if spec["scope"] == "package":
        return lambda f, root: _package(f, root, spec["package"])
    return lambda f, root: f.path


# language -> the key of the scope a file's top-level names live in (default: the file itself)
SCOPES = {"go": _go_package, **{lang: _declared_scope(spec) for lang, spec in TABLE.items()}}
# languages whose top-level names reach every file of the repository (when one file alone defines them)
GLOBAL = frozenset(lang for lang, spec in TABLE.items() if spec["scope"] == "global")


def _file_local(d: TsDef, language: str) -> bool:
    """Whether a storage class keeps ``d`` in its file (C's ``static``)."""
    marks = TABLE[language].get("file_local", ())
    return any(c.type == "storage_class_specifier" and text_of(c) in marks for c in d.anchor.children)


class RepoIndex:
    """Definitions, imports and methods of one repository's parsed files."""

    def __init__(self, parsed: list[tuple[CorpusFile, object, list[TsDef]]]):
        paths = {f.path for f, _, _ in parsed}
        modules = rust_module_files(paths)
        self.rust_modules = modules
        self.crate_of = {p: src for p, (src, _) in modules.items()}
        self.files: dict[str, FileInfo] = {}
        self.top: dict[str, dict[str, TsDef]] = {}
        self.members: dict[tuple[str, str], dict[str, TsDef]] = {}
        rust_types: dict[tuple[str, str], list[TsDef]] = {}
        global_defs: dict[tuple[str, str], dict[str, TsDef]] = {}
        for f, root, defs in parsed:
            lang = f.language
            scope = SCOPES[lang](f, root) if lang in SCOPES else f.path
            imports = rust_imports(root, f.path, modules) if lang == "rust" else \
                js_imports(root, f.path, paths) if lang in ("javascript", "typescript") else {}
            exports = js_exports(root) if lang in ("javascript", "typescript") else {}
            self.files[f.path] = FileInfo(f, root, defs, scope, imports, exports)
            names = self.top.setdefault(scope, {})
            for d in defs:
                if d.owner is None and d.kind != "impl":
                    names.setdefault(d.name, d)
                    if lang == "rust" and d.kind == "type":
                        rust_types.setdefault((self.crate_of.get(f.path, f.path), d.name), []).append(d)
                    if lang in GLOBAL and not _file_local(d, lang):
                        global_defs.setdefault((lang, d.name), {}).setdefault(f.path, d)
        self._unique_rust = {k: v[0] for k, v in rust_types.items() if len(v) == 1}
        self._unique_global = {k: next(iter(v.values())) for k, v in global_defs.items() if len(v) == 1}
        for info in self.files.values():
            for d in info.defs:
                if d.owner is not None and d.kind == "method":
                    self.members.setdefault(self._owner_key(info, d.owner), {}).setdefault(d.name, d)

    def _owner_key(self, info: FileInfo, owner: str) -> tuple[str, str]:
        if info.file.language == "rust":
            return self.crate_of.get(info.file.path, info.file.path), owner
        return info.scope, owner

    def name(self, path: str, name: str, hops: int = 0) -> Meaning | None:
        """What ``name`` means at the top level of ``path``: a definition, a module, or None."""
        info = self.files.get(path)
        if info is None or hops > MAX_HOPS:
            return None
        found = self.top.get(info.scope, {}).get(name)
        if found is not None:
            return found
        imp = info.imports.get(name)
        if imp is None:
            return self._unique_global.get((info.file.language, name))
        if imp.name is None:
            return ModuleRef(imp.path)
        return self.item(imp.path, imp.name, hops + 1)

    def item(self, path: str, name: str, hops: int = 0) -> Meaning | None:
        """Item ``name`` of the module ``path`` (a JS file's export, a Rust module's item)."""
        info = self.files.get(path)
        if info is None:
            return None
        if info.file.language in ("javascript", "typescript"):
            local = info.exports.get(name)
            return self.name(path, local, hops) if local is not None else None
        return self.name(path, name, hops)

    def member(self, owner: TsDef, name: str) -> TsDef | None:
        """Method ``name`` of the type or class ``owner``."""
        info = self.files.get(owner.path)
        if info is None:
            return None
        if info.file.language == "rust":
            key = (self.crate_of.get(owner.path, owner.path), owner.name)
            if self._unique_rust.get(key) is not owner:
                return None
            return self.members.get(key, {}).get(name)
        return self.members.get((info.scope, owner.name), {}).get(name)

    def owner_def(self, path: str, owner: str) -> TsDef | None:
        """The type or class definition named ``owner`` as seen from ``path``."""
        found = self.name(path, owner)
        return found if isinstance(found, TsDef) and found.kind in ("type", "class") else None
