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
