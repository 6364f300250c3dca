"""What the imports of a Rust or JavaScript/TypeScript file bind, as far as they can be followed
inside one repository: a local name -> ``Import(path, name)`` (item ``name`` of the corpus file
``path``; ``name`` None for the module itself). Anything else (other crates, npm packages,
``use`` globs, re-exports from another crate) binds nothing: it is never gold.

- Rust: ``use crate::a::b::{C, d as e}``, ``use super::X``, ``use self::m::Y`` where the module
  path maps to a file of the same crate (``src/a/b.rs`` or ``src/a/b/mod.rs``; the crate root is
  the ``src`` folder holding ``lib.rs`` / ``main.rs``).
- JS/TS: ``import d, {a, b as c} from './x'``, ``import * as ns from './x'``,
  ``const x = require('./x')``, ``const {a, b: c} = require('./x')`` with a relative specifier
  that names a corpus file (extensions ``.ts .tsx .js .mjs .cjs .jsx``, ``index.*``, and the
  ``./x.js`` -> ``./x.ts`` spelling of TypeScript ESM). Exports: ``export`` declarations,
  ``export {a as b}``, ``export default``, ``exports.a = a``, ``module.exports = {a, b: c}``.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from hermes_eval.corpus.grammars import text_of

JS_EXTENSIONS = (".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx")


@dataclass(frozen=True)
class Import:
    """Item ``name`` of corpus file ``path`` (``name`` None: the module itself)."""

    path: str
    name: str | None


def resolve_specifier(importer: str, spec: str, paths: set[str]) -> str | None:
    """The corpus file a relative JS/TS import specifier names, or None."""
    if not spec.startswith((".", "/")) or spec.startswith("/"):
        return None
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
    stem, ext = posixpath.splitext(base)
    tries = [base] if ext in JS_EXTENSIONS else []
    if ext in (".js", ".mjs", ".cjs", ".jsx"):
        tries += [stem + e for e in (".ts", ".tsx", ".mts", ".cts")]
    tries += [base + e for e in JS_EXTENSIONS] + [f"{base}/index{e}" for e in JS_EXTENSIONS]
    return next((t for t in tries if t in paths), None)


def _string(node) -> str | None:
    frag = [c for c in node.named_children if c.type == "string_fragment"] if node is not None else []
    return text_of(frag[0]) if node is not None and node.type == "string" and frag else None


def _required(value) -> str | None:
    """The specifier of ``require('./x')``."""
    if value is None or value.type != "call_expression" or text_of(value.child_by_field_name("function")) != "require":
        return None
    args = value.child_by_field_name("arguments")
    return _string(args.named_children[0]) if args is not None and len(args.named_children) == 1 else None


def js_imports(root, path: str, paths: set[str]) -> dict[str, Import]:
    """Local name -> what it imports, for the top-level imports and requires of a JS/TS file."""
    out: dict[str, Import] = {}
    for node in root.named_children:
        if node.type == "import_statement":
            target = resolve_specifier(path, _string(node.child_by_field_name("source")) or "", paths)
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            if target is None or clause is None:
                continue
            for c in clause.named_children:
                if c.type == "identifier":
                    out[text_of(c)] = Import(target, "default")
                elif c.type == "namespace_import" and c.named_children:
                    out[text_of(c.named_children[0])] = Import(target, None)
                elif c.type == "named_imports":
                    for spec in c.named_children:
                        if spec.type == "import_specifier":
                            name = text_of(spec.child_by_field_name("name"))
                            alias = spec.child_by_field_name("alias")
                            out[text_of(alias) if alias is not None else name] = Import(target, name)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for decl in node.named_children:
                if decl.type != "variable_declarator":
                    continue
                spec = _required(decl.child_by_field_name("value"))
                target = resolve_specifier(path, spec, paths) if spec else None
                if target is None:
                    continue
                name = decl.child_by_field_name("name")
                if name.type == "identifier":
                    out[text_of(name)] = Import(target, None)
                elif name.type == "object_pattern":
                    for p in name.named_children:
                        if p.type == "shorthand_property_identifier_pattern":
                            out[text_of(p)] = Import(target, text_of(p))
                        elif p.type == "pair_pattern" and p.child_by_field_name("value").type == "identifier":
                            out[text_of(p.child_by_field_name("value"))] = Import(target, text_of(p.child_by_field_name("key")))
    return out


def _export_target(value) -> str | None:
    return text_of(value) if value is not None and value.type == "identifier" else None


def js_exports(root) -> dict[str, str]:
    """Exported name -> the local name it exports (declarations export themselves)."""
    out: dict[str, str] = {}
    for node in root.named_children:
        if node.type == "export_statement":
            decl = node.child_by_field_name("declaration")
            value = node.child_by_field_name("value")
            is_default = any(c.type == "default" for c in node.children)
            if decl is not None:
                name = decl.child_by_field_name("name")
                if name is not None:
                    out["default" if is_default else text_of(name)] = text_of(name)
                for d in decl.named_children:
                    if d.type == "variable_declarator" and d.child_by_field_name("name").type == "identifier":
                        out[text_of(d.child_by_field_name("name"))] = text_of(d.child_by_field_name("name"))
            elif value is not None and _export_target(value):
                out["default"] = text_of(value)
            elif node.child_by_field_name("source") is None:
                for clause in (c for c in node.named_children if c.type == "export_clause"):
                    for spec in clause.named_children:
                        name = text_of(spec.child_by_field_name("name"))
                        alias = spec.child_by_field_name("alias")
                        out[text_of(alias) if alias is not None else name] = name
        elif node.type == "expression_statement" and node.named_children:
            expr = node.named_children[0]
            if expr.type != "assignment_expression":
                continue
            left, right = text_of(expr.child_by_field_name("left")), expr.child_by_field_name("right")
            if left.startswith(("exports.", "module.exports.")) and _export_target(right):
                out[left.rsplit(".", 1)[1]] = text_of(right)
            elif left == "module.exports" and right is not None and right.type == "object":
                for p in right.named_children:
                    if p.type == "shorthand_property_identifier":
                        out[text_of(p)] = text_of(p)
                    elif p.type == "pair" and _export_target(p.child_by_field_name("value")):
                        out[text_of(p.child_by_field_name("key"))] = text_of(p.child_by_field_name("value"))
            elif left == "module.exports" and _export_target(right):
                out["default"] = text_of(right)
    return out


def rust_module_files(paths: set[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each ``.rs`` file under a crate's ``src`` -> (that ``src`` folder, its module path)."""
    roots = {posixpath.dirname(p) for p in paths
             if posixpath.basename(p) in ("lib.rs", "main.rs") and posixpath.basename(posixpath.dirname(p)) == "src"}
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for p in paths:
        if not p.endswith(".rs"):
            continue
        root = max((r for r in roots if p.startswith(r + "/")), key=len, default=None)
        if root is None:
            continue
        parts = p[len(root) + 1:-3].split("/")
        if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
            parts = parts[:-1]
        out[p] = (root, tuple(parts))
    return out


def _use_items(node, prefix: list[str]) -> list[tuple[list[str], str, str]]:
    """(module path, item, local name) of each name a ``use`` tree brings in (globs skipped)."""
    if node.type in ("identifier", "crate", "self", "super"):
        return [(prefix, text_of(node), text_of(node))]
    if node.type == "scoped_identifier":
        path = node.child_by_field_name("path")
        head = _path_parts(path) if path is not None else []
        return [(prefix + head, text_of(node.child_by_field_name("name")), text_of(node.child_by_field_name("name")))]
    if node.type == "use_as_clause":
        inner = _use_items(node.child_by_field_name("path"), prefix)
        return [(m, item, text_of(node.child_by_field_name("alias"))) for m, item, _ in inner]
    if node.type == "scoped_use_list":
        path = node.child_by_field_name("path")
        head = prefix + (_path_parts(path) if path is not None else [])
        lst = node.child_by_field_name("list")
        return [x for c in lst.named_children for x in _use_items(c, head)] if lst is not None else []
    if node.type == "use_list":
        return [x for c in node.named_children for x in _use_items(c, prefix)]
    return []


def _path_parts(node) -> list[str]:
    if node.type == "scoped_identifier":
        path = node.child_by_field_name("path")
        return (_path_parts(path) if path is not None else []) + [text_of(node.child_by_field_name("name"))]
    return [text_of(node)]


def rust_module_path(parts: list[str], here: tuple[str, ...]) -> tuple[str, ...] | None:
    """The absolute module path of a ``crate::`` / ``self::`` / ``super::`` path, else None."""
    if not parts:
        return None
    head, rest = parts[0], parts[1:]
    if head == "crate":
        return tuple(rest)
    if head == "self":
        return here + tuple(rest)
    if head == "super":
        up, rest = list(here), list(parts)
        while rest and rest[0] == "super":
            if not up:
                return None
            up.pop()
            rest = rest[1:]
        return tuple(up) + tuple(rest)
    return None


def rust_imports(root, path: str, modules: dict[str, tuple[str, tuple[str, ...]]]) -> dict[str, Import]:
    """Local name -> the crate item a top-level ``use`` brings in, when its module is a file."""
    if path not in modules:
        return {}
    src, here = modules[path]
    files = {mod: p for p, (r, mod) in modules.items() if r == src}
    out: dict[str, Import] = {}
    for node in root.named_children:
        if node.type != "use_declaration":
            continue
        arg = node.child_by_field_name("argument")
        for mod_parts, item, local in (_use_items(arg, []) if arg is not None else []):
            mod = rust_module_path(mod_parts, here)
            if mod is None or item in ("self", "super", "crate"):
                continue
            if mod + (item,) in files:
                out[local] = Import(files[mod + (item,)], None)
            elif mod in files:
                out[local] = Import(files[mod], item)
    return out
