"""Masking removes the query's source text but keeps every line number and valid Python."""
from __future__ import annotations

import ast

from hermes_eval.corpus.masking import mask_text
from hermes_eval.core import Span

SRC = '''import os


def only_doc():
    """Return the answer to everything,
    computed slowly."""


class Thing:
    """A thing with a docstring."""

    def method(self):  # trailing comment
        """Do it."""; return 1
'''


def test_docstrings_are_blanked_in_place():
    spans = [Span("m.py", 5, 6), Span("m.py", 10, 10), Span("m.py", 13, 13)]
    out = mask_text(SRC, spans, "python")
    assert len(out.split("\n")) == len(SRC.split("\n"))
    ast.parse(out)  # still valid code
    assert "answer" not in out and "A thing" not in out and "Do it" not in out
    assert "return 1" in out and "def only_doc():" in out


def test_non_docstring_spans_become_empty_lines():
    text = "# explain the trick\nx = 1\n"
    out = mask_text(text, [Span("a.py", 1, 1)], "python")
    assert out == "\nx = 1\n"


def test_comment_spans_in_grammar_languages_lose_their_comments_and_keep_code():
    go = "package x\n\n// Foo does a thing\n// well.\nfunc Foo() {} // trailing\n"
    assert mask_text(go, [Span("a.go", 3, 4)], "go", "a.go") == "package x\n\n\n\nfunc Foo() {} // trailing\n"
    js = "/** Doc\n * more */ function f() {}\nconst x = 1;\n"
    assert mask_text(js, [Span("a.js", 1, 2)], "javascript", "a.js") == "\n function f() {}\nconst x = 1;\n"
    rust = "/// Doc\n/// more\n#[derive(Debug)]\npub struct X;\n"
    assert mask_text(rust, [Span("a.rs", 1, 2)], "rust", "a.rs") == "\n\n#[derive(Debug)]\npub struct X;\n"
    tsx = "/** Render it. */\nexport const A = () => <div>hi</div>;\n"
    assert mask_text(tsx, [Span("a.tsx", 1, 1)], "typescript", "a.tsx") == "\nexport const A = () => <div>hi</div>;\n"


def test_lines_without_comments_inside_a_span_are_emptied_and_other_languages_lose_lines():
    go = "package x\n\n// A comment\nvar y = 2\n"
    assert mask_text(go, [Span("a.go", 3, 4)], "go", "a.go") == "package x\n\n\n\n"
    md = "# Title\n\nBody text.\n"
    assert mask_text(md, [Span("a.md", 1, 1)], "markdown", "a.md") == "\n\nBody text.\n"
