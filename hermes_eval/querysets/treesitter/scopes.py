"""Which names a Go, Rust, JS/TS, Java or C function binds itself (parameters, variables, patterns,
loop variables, nested definitions): the tree-sitter side of ``python/scopes.py``. Java's and C's
binders are declared in ``languages.toml``."""
from __future__ import annotations

from hermes_eval.corpus.grammars import text_of, walk
from hermes_eval.querysets.treesitter.table import TABLE
from retrievers.chunkers.treesitter_symbols import declarator_name

# per language: node type -> the field holding the names it binds (None: the node itself)
GO_BINDERS = {"short_var_declaration": "left", "range_clause": "left", "var_spec": "name",
               "const_spec": "name", "parameter_declaration": "name",
               "variadic_parameter_declaration": "name", "type_spec": "name", "labeled_statement": "label"}
RUST_BINDERS = {"let_declaration": "pattern", "parameter": "pattern", "for_expression": "pattern",
                 "let_condition": "pattern", "match_pattern": None, "closure_parameters": None,
                 "function_item": "name", "const_item": "name", "static_item": "name"}
JS_BINDERS = {"variable_declarator": "name", "formal_parameters": None, "required_parameter": "pattern",
               "optional_parameter": "pattern", "catch_clause": "parameter", "for_in_statement": "left",
               "arrow_function": "parameter", "function_declaration": "name", "class_declaration": "name",
               "generator_function_declaration": "name", "function_expression": "name"}
_NAME_TYPES = frozenset({"identifier", "shorthand_property_identifier_pattern", "type_identifier"})
BINDERS: dict[str, dict[str, str | None]] = {
    "go": GO_BINDERS, "rust": RUST_BINDERS, "javascript": JS_BINDERS, "typescript": JS_BINDERS,
    **{lang: {t: (None if f == "." else f) for t, f in spec["binders"].items()} for lang, spec in TABLE.items()}}


def local_names(fn, binders: dict[str, str | None]) -> frozenset[str]:
    """Every name bound inside function node ``fn`` (its parameters included)."""
    out: set[str] = set()
    for node in walk(fn):
        if node.type not in binders:
            continue
        fld = binders[node.type]
        if fld is not None and fld.endswith("*"):  # the one name at the end of each declarator chain
            out.update(filter(None, (declarator_name(c) for i, c in enumerate(node.children)
                                     if node.field_name_for_child(i) == fld[:-1])))
            continue
        targets = [node] if fld is None else [c for i, c in enumerate(node.children)
                                              if node.field_name_for_child(i) == fld]
        for t in targets:
            out.update(text_of(n) for n in walk(t) if n.type in _NAME_TYPES)
    return frozenset(out)
