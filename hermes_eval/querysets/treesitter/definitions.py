"""Definitions in a Go, Rust, JavaScript, TypeScript, Java or C file parsed with tree-sitter.

One finder per language (``FINDERS``) lists functions, methods, types and classes with their
line span and the node a doc comment sits above (``anchor``: an ``export`` wrapper in JS/TS, the
item itself elsewhere; in Rust the ``#[...]`` attributes directly above belong to the item's
span). Go: functions, methods (owner = receiver type), types. Rust: ``fn`` / ``struct`` /
``enum`` / ``trait`` / ``union`` / ``type`` items, ``impl`` blocks and the functions in them
(owner = the impl's type), inside inline ``mod`` blocks too. JS/TS: function and class
declarations, class methods and function-valued class fields (owner = the class), ``const f = () => ...`` / ``function ()``
bindings, TS interfaces, type aliases and enums. Java and C are declared as data (``languages.toml``:
kinds; ``retrievers/chunkers/ts_languages.toml``: names and containers, the symbol chunker's own):
Java classes, interfaces, enums, records, their methods and constructors (owner = the class, nested
classes as ``Outer.Inner``); C functions, struct/union/enum specifiers with a body, typedefs and
function-like macros, inside ``#if``/``#ifdef`` blocks too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from hermes_eval.corpus.grammars import rows, text_of, walk
from hermes_eval.querysets.treesitter.table import TABLE
from retrievers.chunkers.treesitter_symbols import GRAMMARS as SYMBOL_GRAMMARS


@dataclass(frozen=True)
class TsDef:
    """A definition: ``symbol`` is qualified by its owner (``Type.method``)."""

    path: str
    name: str
    symbol: str
    kind: str  # function | method | type | class | impl
    owner: str | None
    start: int  # first line, attributes included
    end: int
    anchor: object = field(compare=False, repr=False)  # the node a doc comment sits directly above
    body: object = field(compare=False, repr=False, default=None)  # a function's block, else None


Finder = Callable[[object, str], Iterator[TsDef]]
# a function's block in each grammar (a Java constructor's body is its own node type)
_BODIES = frozenset({"block", "statement_block", "constructor_body", "compound_statement"})


def _name(node, fld: str = "name") -> str:
    return text_of(node.child_by_field_name(fld))


def _make(path: str, name: str, kind: str, owner: str | None, node, anchor, start: int | None = None) -> TsDef:
    first, last = rows(anchor)
    body = node.child_by_field_name("body")
    is_block = body is not None and body.type in _BODIES
    return TsDef(path, name, f"{owner}.{name}" if owner else name, kind, owner,
                 first if start is None else start, last, anchor, body if is_block else None)


def receiver_type(node) -> str | None:
    """The type a Go method's receiver names (``*Server`` and ``Map[K, V]`` give the bare name)."""
    recv = node.child_by_field_name("receiver")
    types = [n for n in walk(recv) if n.type == "type_identifier"] if recv is not None else []
    return text_of(types[0]) if types else None


def go_definitions(root, path: str) -> Iterator[TsDef]:
    for child in root.named_children:
        if child.type == "function_declaration":
            yield _make(path, _name(child), "function", None, child, child)
        elif child.type == "method_declaration":
            yield _make(path, _name(child), "method", receiver_type(child), child, child)
        elif child.type == "type_declaration":
            specs = [c for c in child.named_children if c.type in ("type_spec", "type_alias")]
            for spec in specs:
                yield _make(path, _name(spec), "type", None, spec, child if len(specs) == 1 else spec)


_RUST_TYPES = {"struct_item": "type", "enum_item": "type", "trait_item": "type", "union_item": "type",
               "type_item": "type"}
_RUST_FUNCS = ("function_item", "function_signature_item")


def impl_type(node) -> str | None:
    """The type name an ``impl`` block is for (``impl<T> Trait for Wrapper<T>`` gives Wrapper)."""
    typ = node.child_by_field_name("type")
    if typ is None:
        return None
    if typ.type == "generic_type":
        typ = typ.child_by_field_name("type")
    if typ is not None and typ.type == "scoped_type_identifier":
        typ = typ.child_by_field_name("name")
    return text_of(typ) if typ is not None and typ.type == "type_identifier" else None


def _rust_start(node) -> int:
    """First line of a Rust item with the ``#[...]`` attributes directly above it."""
    start = rows(node)[0]
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "attribute_item" and rows(prev)[1] >= start - 1:
        start = rows(prev)[0]
        prev = prev.prev_named_sibling
    return start


def _rust_items(container, path: str, owner: str | None) -> Iterator[TsDef]:
    for child in container.named_children:
        start = _rust_start(child)
        if child.type in _RUST_FUNCS:
            yield _make(path, _name(child), "method" if owner else "function", owner, child, child, start)
        elif child.type in _RUST_TYPES:
            yield _make(path, _name(child), _RUST_TYPES[child.type], None, child, child, start)
            if child.type == "trait_item" and child.child_by_field_name("body") is not None:
                yield from _rust_items(child.child_by_field_name("body"), path, _name(child))
        elif child.type == "impl_item":
            typ = impl_type(child)
            body = child.child_by_field_name("body")
            if typ is None or body is None:
                continue
            trait = text_of(child.child_by_field_name("trait"))
            yield _make(path, f"impl {trait} for {typ}" if trait else f"impl {typ}", "impl", None, child, child, start)
            yield from _rust_items(body, path, typ)
        elif child.type == "mod_item" and child.child_by_field_name("body") is not None:
            yield from _rust_items(child.child_by_field_name("body"), path, owner)


def rust_definitions(root, path: str) -> Iterator[TsDef]:
    yield from _rust_items(root, path, None)


FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_JS_DECLS = {"function_declaration": "function", "generator_function_declaration": "function",
             "class_declaration": "class", "abstract_class_declaration": "class", "class": "class",
             "interface_declaration": "type", "type_alias_declaration": "type", "enum_declaration": "type"}


def bound_function(node):
    """(name, function node) of ``const f = () => ...`` with one declarator, else None."""
    decls = [c for c in node.named_children if c.type == "variable_declarator"]
    if len(decls) != 1:
        return None
    value = decls[0].child_by_field_name("value")
    name = decls[0].child_by_field_name("name")
    if value is None or name is None or value.type not in FUNCTION_VALUES or name.type != "identifier":
        return None
    return text_of(name), value

_FIELDS = {"public_field_definition": "name", "field_definition": "property"}  # class field -> its name field


def _js_items(container, path: str) -> Iterator[TsDef]:
    for child in container.named_children:
        anchor, node = child, child
        if child.type == "export_statement":
            node = child.child_by_field_name("declaration") or next(
                (c for c in child.named_children if c.type in _JS_DECLS), None)
            if node is None:
                continue
        if node.type in _JS_DECLS and node.child_by_field_name("name") is not None:
            name = _name(node)
            yield _make(path, name, _JS_DECLS[node.type], None, node, anchor)
            body = node.child_by_field_name("body")
            if _JS_DECLS[node.type] == "class" and body is not None:
                for member in body.named_children:
                    if member.type == "method_definition":
                        yield _make(path, _name(member), "method", name, member, member)
                    elif member.type in _FIELDS:
                        key, value = member.child_by_field_name(_FIELDS[member.type]), member.child_by_field_name("value")
                        if key is not None and value is not None and value.type in FUNCTION_VALUES:
                            yield _make(path, text_of(key), "method", name, value, member)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            bound = bound_function(node)
            if bound is not None:
                yield _make(path, bound[0], "function", None, bound[1], anchor)


def js_definitions(root, path: str) -> Iterator[TsDef]:
    yield from _js_items(root, path)


def declared_definitions(language: str) -> Finder:
    """The finder of a language declared as data: ``kinds`` from ``languages.toml``; names and containers
    from the symbol chunker's grammar table."""
    kinds: dict[str, str] = TABLE[language]["kinds"]
    grammar = SYMBOL_GRAMMARS[language]

    def items(container, path: str, owner: str | None) -> Iterator[TsDef]:
        for child in container.named_children:
            kind = kinds.get(child.type)
            namer = grammar.symbols.get(child.type) if kind is not None else None
            name = namer(child) if namer is not None else None
            if name is None:
                if child.type in grammar.containers:
                    yield from items(child, path, owner)
                continue
            d = _make(path, name, kind, owner, child, child)
            yield d
            body = child.child_by_field_name("body")
            if kind in ("class", "type") and body is not None:
                yield from items(body, path, d.symbol)

    def find(root, path: str) -> Iterator[TsDef]:
        yield from items(root, path, None)
    return find


FINDERS: dict[str, Finder] = {"go": go_definitions, "rust": rust_definitions,
                              "javascript": js_definitions, "typescript": js_definitions,
                              **{language: declared_definitions(language) for language in TABLE}}


def definitions(root, language: str, path: str) -> list[TsDef]:
    """Every definition of a parsed file (empty for a language without a finder)."""
    finder = FINDERS.get(language)
    return list(finder(root, path)) if finder is not None else []
