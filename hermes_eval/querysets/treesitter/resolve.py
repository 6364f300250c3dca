"""Which repository definitions the code on some lines of a Go, Rust, JS/TS, Java or C file uses,
resolved with tree-sitter through ``treesitter.index.RepoIndex``; nothing is guessed.

Followed: names of package/module-level functions, types and classes (and what imports bind),
``recv.M()`` on a Go method's receiver, ``self.m()`` / ``Self::m()`` in a Rust ``impl``,
``Type::m()`` / ``module::f()`` / ``crate::a::f()`` paths, ``this.m()`` in a JS/TS class,
``Class.m()`` and ``ns.f()`` on a namespace import; in Java, types of the package, ``m()`` /
``this.m()`` on the enclosing class and ``Type.m()``; in C, functions, macros, types and tags of the
file or of the one file of the repository that defines them. A name bound anywhere in the enclosing
function (parameter, variable, pattern, loop variable, nested function) is local and never
resolved, even where it would be the outer one: shadowing is not worth a wrong gold. Methods
on other variables (their type is unknown without type inference) are not followed.
"""
from __future__ import annotations

from typing import Callable, Iterator

from hermes_eval.corpus.grammars import text_of, walk
from hermes_eval.querysets.treesitter.definitions import TsDef
from hermes_eval.querysets.treesitter.imports import rust_module_path
from hermes_eval.querysets.treesitter.index import FileInfo, ModuleRef, RepoIndex
from hermes_eval.querysets.treesitter.scopes import BINDERS, GO_BINDERS, JS_BINDERS, RUST_BINDERS, local_names


def _in_rows(node, start: int, end: int) -> bool:
    return start <= node.start_point[0] + 1 <= end


def _parent_field(node) -> str | None:
    parent = node.parent
    if parent is None:
        return None
    for i, c in enumerate(parent.children):
        if c.id == node.id:
            return parent.field_name_for_child(i)
    return None


def _definition(found) -> TsDef | None:
    return found if isinstance(found, TsDef) else None


def _go_uses(index: RepoIndex, info: FileInfo, fn: TsDef, start: int, end: int) -> Iterator[TsDef]:
    locals_ = local_names(fn.anchor, GO_BINDERS)
    recv = fn.anchor.child_by_field_name("receiver")
    recv_names = [text_of(n) for n in walk(recv) if n.type == "identifier"] if recv is not None else []
    owner = index.owner_def(info.file.path, fn.owner) if fn.owner else None
    for node in walk(fn.anchor):
        if not _in_rows(node, start, end):
            continue
        if node.type in ("identifier", "type_identifier") and text_of(node) not in locals_:
            if node.parent is not None and node.parent.type == "selector_expression" and _parent_field(node) == "field":
                continue
            found = _definition(index.name(info.file.path, text_of(node)))
            if found is not None:
                yield found
        elif node.type == "selector_expression" and owner is not None:
            operand = node.child_by_field_name("operand")
            if operand is not None and operand.type == "identifier" and text_of(operand) in recv_names:
                found = index.member(owner, text_of(node.child_by_field_name("field")))
                if found is not None:
                    yield found


def _rust_path(index: RepoIndex, info: FileInfo, node, owner: TsDef | None, locals_: frozenset[str]):
    """What a Rust path expression (``a``, ``Self``, ``a::b``, ``crate::m::f``) means."""
    if node.type in ("identifier", "type_identifier"):
        name = text_of(node)
        if name == "Self":
            return owner
        return None if name in locals_ else index.name(info.file.path, name)
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        path, name = node.child_by_field_name("path"), text_of(node.child_by_field_name("name"))
        if path is None:
            return None
        if path.type in ("crate", "super", "self"):
            return _rust_module_item(index, info, [path.type], name)
        base = _rust_path(index, info, path, owner, frozenset())
        if isinstance(base, ModuleRef):
            return index.item(base.path, name)
        if isinstance(base, TsDef) and base.kind == "type":
            return index.member(base, name) or base
        parts = [text_of(n) for n in walk(path) if n.type in ("crate", "super", "self", "identifier")]
        if parts and parts[0] in ("crate", "super", "self"):
            return _rust_module_item(index, info, parts, name)
    return None


def _rust_module_item(index: RepoIndex, info: FileInfo, parts: list[str], name: str):
    modules = index.rust_modules
    if info.file.path not in modules:
        return None
    src, here = modules[info.file.path]
    mod = rust_module_path(parts, here)
    files = {m: p for p, (r, m) in modules.items() if r == src}
    if mod is None or mod not in files:
        return None
    return index.item(files[mod], name)


def _rust_uses(index: RepoIndex, info: FileInfo, fn: TsDef, start: int, end: int) -> Iterator[TsDef]:
    params = fn.anchor.child_by_field_name("parameters")
    locals_ = frozenset().union(*(local_names(n, RUST_BINDERS) for n in (fn.body, params) if n is not None))
    owner = index.owner_def(info.file.path, fn.owner) if fn.owner else None
    for node in walk(fn.anchor):
        if not _in_rows(node, start, end):
            continue
        parent = node.parent
        if node.type in ("identifier", "type_identifier") and parent is not None and \
                parent.type in ("scoped_identifier", "scoped_type_identifier", "field_expression"):
            continue
        if node.type in ("identifier", "type_identifier", "scoped_identifier", "scoped_type_identifier"):
            if parent is not None and parent.type in ("scoped_identifier", "scoped_type_identifier") \
                    and _parent_field(node) == "path":
                continue
            found = _definition(_rust_path(index, info, node, owner, locals_))
            if found is not None:
                yield found
        elif node.type == "field_expression" and owner is not None:
            value = node.child_by_field_name("value")
            if value is not None and value.type == "self" and parent is not None and parent.type == "call_expression":
                found = index.member(owner, text_of(node.child_by_field_name("field")))
                if found is not None:
                    yield found


def _js_uses(index: RepoIndex, info: FileInfo, fn: TsDef, start: int, end: int) -> Iterator[TsDef]:
    scope = fn.body.parent if fn.body is not None else fn.anchor
    locals_ = local_names(scope, JS_BINDERS) - ({fn.name} if fn.kind == "function" else set())
    owner = index.owner_def(info.file.path, fn.owner) if fn.owner else None
    for node in walk(scope):
        if not _in_rows(node, start, end):
            continue
        if node.type in ("identifier", "type_identifier") and text_of(node) not in locals_:
            if node.parent is not None and node.parent.type == "member_expression" and _parent_field(node) == "object":
                continue
            found = _definition(index.name(info.file.path, text_of(node)))
            if found is not None:
                yield found
        elif node.type == "member_expression":
            obj, prop = node.child_by_field_name("object"), text_of(node.child_by_field_name("property"))
            if obj is None:
                continue
            if obj.type == "this" and owner is not None:
                found = index.member(owner, prop)
            elif obj.type == "identifier" and text_of(obj) not in locals_:
                base = index.name(info.file.path, text_of(obj))
                found = index.item(base.path, prop) if isinstance(base, ModuleRef) else \
                    (index.member(base, prop) or base) if isinstance(base, TsDef) and base.kind == "class" else base
            else:
                found = None
            if isinstance(found, TsDef):
                yield found


def _java_uses(index: RepoIndex, info: FileInfo, fn: TsDef, start: int, end: int) -> Iterator[TsDef]:
    locals_ = local_names(fn.anchor, BINDERS["java"])
    path = info.file.path
    by_symbol = {d.symbol: d for d in info.defs}
    chain: list[str] = []  # the enclosing classes, innermost first ("A.B", "A")
    owner = fn.owner
    while owner:
        chain.append(owner)
        owner = owner.rpartition(".")[0]

    def enclosing(name: str, kinds: tuple[str, ...], owners: list[str] = chain) -> TsDef | None:
        """Member ``name`` (a method, a nested type) of the innermost enclosing class that has one."""
        return next((d for d in (by_symbol.get(f"{o}.{name}") for o in owners) if d is not None and d.kind in kinds), None)

    def named(name: str) -> TsDef | None:
        return enclosing(name, ("class", "type")) or _definition(index.name(path, name))

    for node in walk(fn.anchor):
        if not _in_rows(node, start, end):
            continue
        if node.type == "method_invocation":
            obj, name = node.child_by_field_name("object"), text_of(node.child_by_field_name("name"))
            if obj is None:
                found = enclosing(name, ("method",))
            elif obj.type == "this":
                found = enclosing(name, ("method",), chain[:1])
            elif obj.type == "identifier" and text_of(obj) not in locals_:
                base = named(text_of(obj))
                found = (by_symbol.get(f"{base.symbol}.{name}") or index.member(base, name) or base) \
                    if base is not None else None
            else:
                found = None
            if found is not None:
                yield found
        elif node.type in ("identifier", "type_identifier") and text_of(node) not in locals_:
            parent, fld = node.parent, _parent_field(node)
            if parent is not None and (parent.type == "method_invocation" and fld in ("name", "object")
                                       or parent.type == "field_access" and fld == "field"):
                continue  # a call is read above; a field of an object is no definition
            found = named(text_of(node))
            if found is not None:
                yield found


def _c_uses(index: RepoIndex, info: FileInfo, fn: TsDef, start: int, end: int) -> Iterator[TsDef]:
    locals_ = local_names(fn.anchor, BINDERS["c"])
    for node in walk(fn.anchor):
        if node.type in ("identifier", "type_identifier") and _in_rows(node, start, end) and text_of(node) not in locals_:
            found = _definition(index.name(info.file.path, text_of(node)))
            if found is not None:
                yield found


USES: dict[str, Callable[[RepoIndex, FileInfo, TsDef, int, int], Iterator[TsDef]]] = {
    "go": _go_uses, "rust": _rust_uses, "javascript": _js_uses, "typescript": _js_uses,
    "java": _java_uses, "c": _c_uses}


def used_definitions(index: RepoIndex, fn: TsDef, start: int, end: int) -> list[TsDef]:
    """Repository definitions used by code starting on lines ``start``..``end`` inside the
    function ``fn``, sorted by (path, symbol)."""
    info = index.files.get(fn.path)
    if info is None:
        return []
    found = {(d.path, d.symbol, d.start): d for d in USES[info.file.language](index, info, fn, start, end)}
    return [found[k] for k in sorted(found)]


def used_on_lines(index: RepoIndex, path: str, start: int, end: int) -> list[TsDef]:
    """Repository definitions used on lines ``start``..``end`` of ``path`` inside any of its
    functions (code outside functions is not read)."""
    info = index.files.get(path)
    if info is None or end < start:
        return []
    found: dict[tuple, TsDef] = {}
    for fn in info.defs:
        if fn.body is not None and fn.start <= end and start <= fn.end:
            for d in used_definitions(index, fn, start, end):
                found[(d.path, d.symbol, d.start)] = d
    return [found[k] for k in sorted(found)]
