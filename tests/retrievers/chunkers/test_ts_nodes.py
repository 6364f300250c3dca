"""The shared grammar loader and node helpers: one parser per wheel, the 1-based line rule."""
from __future__ import annotations

import pytest

from hermes_eval.corpus import grammars
from retrievers.chunkers import treesitter_symbols
from retrievers.chunkers.ts_nodes import parser, rows, text_of


@pytest.mark.parametrize("name", sorted(treesitter_symbols.GRAMMARS))
def test_the_corpus_loads_each_chunker_grammar_the_same_parser(name):
    g = treesitter_symbols.GRAMMARS[name]
    assert grammars.GRAMMARS[name] == (g.module, g.entry)
    assert parser(g.module, g.entry) is parser(*grammars.GRAMMARS[name])  # cached, loaded once


def test_tsx_parses_jsx_that_plain_typescript_cannot():
    src = "const a = <div>{x}</div>;\n"
    assert not grammars.parse(src, "typescript", "a.tsx").root_node.has_error
    assert grammars.parse(src, "typescript", "a.ts").root_node.has_error


def test_a_node_ending_at_column_zero_ends_on_the_line_before():
    root = grammars.parse("// one\nfn f() {}\n", "rust").root_node
    assert root.end_point == (2, 0) and rows(root) == (1, 2)  # the file node takes the last newline
    comment, fn = root.named_children
    assert rows(comment) == (1, 1) and rows(fn) == (2, 2) and text_of(fn) == "fn f() {}"


def test_text_of_none_is_empty_and_languages_without_a_wheel_give_no_tree():
    assert text_of(None) == ""
    assert grammars.parse("x = 1\n", "python") is None and grammars.grammar_for("markdown") is None
