"""Symbol chunks from tree-sitter for Go, Rust, JavaScript, TypeScript, Java and C, parsed with the
per-language grammar wheels (``tree_sitter_go.language()``, ``tree_sitter_typescript.language_typescript()``
...), never tree-sitter-language-pack. Each language's definition nodes, and how they are named, are
declared in ``ts_languages.toml``; a config's ``languages`` picks the ones it parses (Java and C are
not parsed unless listed: :data:`DEFAULT_LANGUAGES`).

Each definition (function, method, type, impl, trait, class, a ``const f = () => ...`` binding, a
C struct or function-like macro) is one chunk, joined by the comments and attributes directly above
it. Containers (a C ``#ifdef`` block, a Java class body) are searched for definitions whatever their size. A definition over
``max_chars`` is opened up into the definitions inside it (``impl`` methods, class methods),
or, with none, split into character-capped windows. A node that is no definition but is over
the cap (an AMD ``define(..., function () {...})`` wrapper, a big ``mod``) is searched for
definitions inside it. Lines left over (imports, constants) go to the fallback chunker, as do
other languages.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
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


_DECLARED = frozenset({"identifier", "type_identifier", "field_identifier"})


def declarator_name(node) -> str | None:
    """The name a C declarator chain ends in: ``*f(void)``, ``(*cb)(int)``, ``arr[4]`` and ``x = 1``
    give ``f``, ``cb``, ``arr`` and ``x`` (a function definition, a typedef, a declaration)."""
    while node is not None and node.type not in _DECLARED:
        inner = node.child_by_field_name("declarator")
        if inner is None:  # a parenthesized declarator holds its declarator unnamed
            inner = next((c for c in node.named_children if c.type in _DECLARED or c.type.endswith("declarator")), None)
        node = inner
    return text_of(node) or None


def _c_declarator(node) -> str | None:
    return declarator_name(node.child_by_field_name("declarator"))


def _c_tagged(node) -> str | None:
    """``struct S { ... }`` (also union, enum) by its tag; a forward declaration or a use is no definition."""
    if node.child_by_field_name("body") is None:
        return None
    return text_of(node.child_by_field_name("name")) or None


def _walk(node):
    yield node
    for c in node.children:
        yield from _walk(c)


# the namers ts_languages.toml names, each made for the language it serves
NAMERS: dict[str, Callable[[str], Namer]] = {
    "go_method": lambda lang: _go_method, "go_type": lambda lang: _go_type, "rust_impl": lambda lang: _rust_impl,
    "js_binding": lambda lang: _js_binding, "js_assignment": lambda lang: _js_assignment,
    "js_pair": lambda lang: _js_pair, "export": _export, "c_declarator": lambda lang: _c_declarator,
    "c_tagged": lambda lang: _c_tagged,
}
TABLE = Path(__file__).resolve().parent / "ts_languages.toml"


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
    # nodes holding definitions, searched whatever their size (ts_languages.toml)
    containers: frozenset[str] = frozenset()


def _namer(language: str, how: str) -> Namer:
    if how.startswith("field:"):
        return _field(how.removeprefix("field:"))
    if how not in NAMERS:
        raise ValueError(f"{TABLE.name} [{language}]: no namer {how!r}; use field:NAME or one of {sorted(NAMERS)}")
    return NAMERS[how](language)


def load_grammars(path: Path = TABLE) -> dict[str, Grammar]:
    """language -> its :class:`Grammar`, as the table at ``path`` declares them."""
    out: dict[str, Grammar] = {}
    for language, spec in tomllib.loads(path.read_text(encoding="utf-8")).items():
        out[language] = Grammar(spec["module"], {t: _namer(language, how) for t, how in spec["symbols"].items()},
                                frozenset(spec.get("attached", ())), spec.get("entry", "language"),
                                containers=frozenset(spec.get("containers", ())))
    return out


GRAMMARS: dict[str, Grammar] = load_grammars()
# The languages a config that names none parses: those this chunker parsed when the keys of the cached
# chunks of its presets were recorded. A config lists ``languages`` to parse Java and C as well
# (conf/chunker/treesitter_java_c.yaml); parsing them by default would serve, under the unchanged key
# of every existing preset, cached fallback chunks of .java/.c/.h files as if they were symbol chunks.
DEFAULT_LANGUAGES: tuple[str, ...] = ("go", "rust", "javascript", "typescript")


@declare("retrievers.chunkers.treesitter_symbols.TreeSitterSymbolChunker", resources=("ts_languages.toml",))
@dataclass(frozen=True)
class TreeSitterSymbolChunker(Chunker):
    """One chunk per definition for ``languages`` (some of ``GRAMMARS``); ``fallback`` for the rest."""

    max_chars: int = 1500
    overlap_lines: int = 3
    fallback: HeuristicChunker = field(default_factory=HeuristicChunker)
    languages: tuple[str, ...] = DEFAULT_LANGUAGES

    def native_languages(self) -> frozenset[str]:
        """The languages it cuts itself; a file of another goes to its ``fallback`` (chunkers/coverage.py)."""
        return frozenset(self.languages) & frozenset(GRAMMARS)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.languages) - set(GRAMMARS))
        if unknown:
            raise ValueError(f"TreeSitterSymbolChunker.languages: no grammar here for {unknown}; use some of "
                             f"{sorted(GRAMMARS)}")
        object.__setattr__(self, "languages", tuple(self.languages))

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        grammar = GRAMMARS.get(language) if language in self.languages else None
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
                if child.type in grammar.containers or child.end_byte - child.start_byte > self.max_chars:
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
