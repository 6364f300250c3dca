"""whole_file: one chunk per file, from its first to its last non-blank line."""
from __future__ import annotations

from retrievers.chunkers.whole import WholeFileChunker


def test_one_chunk_trimmed_to_non_blank_lines():
    [c] = WholeFileChunker().chunk("f.py", "\n\ndef f():\n    return 1\n\n", "python")
    assert (c.id, c.text) == ("f.py:3-4", "def f():\n    return 1")


def test_blank_file_gives_no_chunk():
    assert WholeFileChunker().chunk("e.py", "\n  \n", "python") == []
