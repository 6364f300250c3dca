"""Symbol chunks from tree-sitter for Go, Rust, JavaScript and TypeScript, parsed with the
per-language grammar wheels (``tree_sitter_go.language()``, ``tree_sitter_typescript.language_typescript()``
...), never tree-sitter-language-pack.

Each definition (function, method, type, impl, trait, class, a ``const f = () => ...`` binding)
is one chunk, joined by the comments and attributes directly above it. A definition over
``max_chars`` is opened up into the definitions inside it (``impl`` methods, class methods),
or, with none, split into character-capped windows. A node that is no definition but is over
the cap (an AMD ``define(..., function () {...})`` wrapper, a big ``mod``) is searched for
definitions inside it. Lines left over (imports, constants) go to the fallback chunker, as do
other languages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, assemble, split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.ts_nodes import parser, rows, text_of
from retrievers.identity.declare import declare

Namer = Callable[[object], "str | None"]
_FUNCS = frozenset({"function_expression", "function", "arrow_function", "generator_function", "class"})


def _field(name: str = "name") -> Namer:
    return lambda node: text_of(node.child_by_field_name(name)) or None


def _go_type(node) -> str | None:
    specs = [c for c in node.named_children if c.type in ("type_spec", "type_alias")]
    return ", ".join(text_of(s.child_by_field_name("name")) for s in specs) or None


def _go_method(node) -> str | None:
    recv = node.child_by_field_name("receiver")
    types = [n for n in _walk(recv) if n.type == "type_identifier"] if recv is not None else []
    own = text_of(node.child_by_field_name("name"))
    return f"{text_of(types[0])}.{own}" if types else own or None


def _rust_impl(node) -> str | None:
    trait, typ = node.child_by_field_name("trait"), node.child_by_field_name("type")
    return f"{text_of(trait)} for {text_of(typ)}" if trait is not None else text_of(typ) or None


def _js_binding(node) -> str | None:
    for decl in node.named_children:
        value = decl.child_by_field_name("value")
        if decl.type == "variable_declarator" and value is not None and value.type in _FUNCS:
            return text_of(decl.child_by_field_name("name"))
    return None


def _js_assignment(node) -> str | None:
    expr = node.named_children[0] if node.named_children else None
    if expr is None or expr.type != "assignment_expression":
        return None
    right = expr.child_by_field_name("right")
    return text_of(expr.child_by_field_name("left")) if right is not None and right.type in _FUNCS else None


def _js_pair(node) -> str | None:
    value = node.child_by_field_name("value")
    return text_of(node.child_by_field_name("key")) if value is not None and value.type in _FUNCS else None


def _export(language: str) -> Namer:
    """``export <declaration>`` named as the declaration is in ``language``'s grammar."""
    def name(node) -> str | None:
        decl = node.child_by_field_name("declaration")
        namer = GRAMMARS[language].symbols.get(decl.type) if decl is not None else None
        return namer(decl) if namer is not None else None
    return name


def _walk(node):
    yield node
    for c in node.children:
        yield from _walk(c)


@dataclass(frozen=True)
class Grammar:
    """A grammar wheel's module, its definition node types (with how to name them), and the
    node types that attach to the definition below them."""

    module: str
    symbols: dict[str, Namer]
    attached: frozenset[str]
    entry: str = "language"  # the wheel's function returning the language pointer
    # nodes named after the declaration they wrap (``export class A``): opened up through it, so a
    # big exported class's methods are ``A.m``, not ``A.A.m``
    wrappers: frozenset[str] = frozenset({"export_statement"})


GO = Grammar("tree_sitter_go", {"function_declaration": _field(), "method_declaration": _go_method,
                                "type_declaration": _go_type}, frozenset({"comment"}))
RUST = Grammar("tree_sitter_rust", {
    **{t: _field() for t in ("function_item", "function_signature_item", "struct_item", "enum_item",
                             "trait_item", "mod_item", "macro_definition", "union_item", "const_item",
                             "static_item", "type_item")},
    "impl_item": _rust_impl}, frozenset({"line_comment", "block_comment", "attribute_item"}))
_JS_DEFS = ("function_declaration", "generator_function_declaration", "class_declaration", "method_definition")
_JS_BINDINGS: dict[str, Namer] = {"lexical_declaration": _js_binding, "variable_declaration": _js_binding,
                                  "expression_statement": _js_assignment, "pair": _js_pair}
JAVASCRIPT = Grammar("tree_sitter_javascript", {**{t: _field() for t in _JS_DEFS}, **_JS_BINDINGS,
                                                "export_statement": _export("javascript")}, frozenset({"comment"}))
# TypeScript (plain .ts syntax; .tsx files parse with errors the fallback absorbs): JavaScript's
# definitions plus interfaces, type aliases, enums, abstract classes and namespaces
TYPESCRIPT = Grammar("tree_sitter_typescript", {
    **{t: _field() for t in (*_JS_DEFS, "abstract_class_declaration", "interface_declaration",
                             "type_alias_declaration", "enum_declaration", "internal_module",
                             "function_signature", "abstract_method_signature")},
    **_JS_BINDINGS, "export_statement": _export("typescript")}, frozenset({"comment"}), entry="language_typescript")
GRAMMARS: dict[str, Grammar] = {"go": GO, "rust": RUST, "javascript": JAVASCRIPT, "typescript": TYPESCRIPT}


@declare("retrievers.chunkers.treesitter_symbols.TreeSitterSymbolChunker")
@dataclass(frozen=True)
class TreeSitterSymbolChunker(Chunker):
    """One chunk per definition for the languages in ``GRAMMARS``; ``fallback`` for the rest."""

    max_chars: int = 1500
    overlap_lines: int = 3
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        grammar = GRAMMARS.get(language)
        if grammar is None:
            return self.fallback.chunk(path, text, language)
        lines = split_lines(text)
        root = parser(grammar.module, grammar.entry).parse(text.encode("utf-8")).root_node
        return assemble(path, lines, language, self._inside(lines, grammar, root, None), self.fallback)

    def _inside(self, lines: list[str], grammar: Grammar, node, owner: str | None) -> list[Piece]:
        """Pieces for the definitions among ``node``'s children (searching big non-definitions)."""
        out: list[Piece] = []
        children = node.named_children
        for i, child in enumerate(children):
            namer = grammar.symbols.get(child.type)
            name = namer(child) if namer is not None else None
            if name is None:
                if child.end_byte - child.start_byte > self.max_chars:
                    out.extend(self._inside(lines, grammar, child, owner))
                continue
            qualified = f"{owner}.{name}" if owner else name
            start, end = rows(child)
            j = i - 1
            while j >= 0 and children[j].type in grammar.attached and rows(children[j])[1] >= start - 1:
                start = rows(children[j])[0]
                j -= 1
            out.extend(self._definition(lines, grammar, child, qualified, start, end))
        return out

    def _definition(self, lines: list[str], grammar: Grammar, node, name: str, start: int,
                    end: int) -> list[Piece]:
        meta = {"kind": node.type}
        if sum(len(line) + 1 for line in lines[start - 1:end]) <= self.max_chars:
            return [Piece(start, end, name, meta)]
        wrapped = node.child_by_field_name("declaration") if node.type in grammar.wrappers else None
        inner = self._inside(lines, grammar, wrapped if wrapped is not None else node, name)
        if inner:
            return inner
        splitter = HeuristicChunker(max_chars=self.max_chars, overlap_lines=self.overlap_lines, min_fill=1.0)
        return [Piece(p.start, p.end, name, dict(meta, part=k))
                for k, p in enumerate(splitter.split(lines, start, end))]
