"""The shared-header wrapper on scripted corpora: a header more than min_files files open with is cut from
what the embedder reads, a unique or below-threshold one is kept, and chunk ids, lines and texts stay the
inner chunker's (gold spans judge the same chunks)."""
from __future__ import annotations

import pytest

from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.lines import LineChunker
from retrievers.chunkers.shared_header import SharedHeaderChunker
from retrievers.chunkers.whole import WholeFileChunker
from retrievers.leg_text import HeaderCut, cut_totals, header_cut, header_removed, leg_text

LICENCE = "/*\n * Licensed to the Apache Software Foundation (ASF) under one or more\n * contributor licence agreements.\n */\n"


def java(name: str, header: str = LICENCE) -> tuple[str, str, str]:
    return (f"org/x/{name}.java", f"{header}package org.x;\n\npublic class {name} {{\n    int size() {{ return 1; }}\n}}\n",
            "java")


def corpus(n_shared: int, extra=()) -> list[tuple[str, str, str]]:
    return [java(f"C{i}") for i in range(n_shared)] + list(extra)


def test_shared_header_is_cut_for_the_embedder_only():
    wrapped = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=3), corpus(4))
    plain = chunk_files(WholeFileChunker(), corpus(4))
    assert [(c.id, c.start, c.end, c.text) for c in wrapped] == [(c.id, c.start, c.end, c.text) for c in plain]
    for c in wrapped:
        assert header_cut(c) == HeaderCut(lines=4, tokens=header_cut(c).tokens, inputs=("vector",))
        assert header_cut(c).tokens > 10
        assert leg_text(c, "vector").startswith("package org.x;")
        assert "Licensed" not in leg_text(c, "vector")
        assert leg_text(c, "text") == c.text  # BM25 keeps the header unless drop_for names text


def test_drop_for_text_cuts_the_lexical_input_too():
    (c, *_) = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=1, drop_for=("vector", "text")), corpus(2))
    assert leg_text(c, "text") == leg_text(c, "vector")
    assert "Licensed" not in leg_text(c, "text")


def test_below_threshold_and_unique_headers_are_kept():
    own = java("Own", "/* this file's own note */\n")
    at = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=4), corpus(4, [own]))
    assert not any(header_cut(c) for c in at)  # 4 files are not more than 4
    over = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=3), corpus(4, [own]))
    cut = {c.path for c in over if header_cut(c)}
    assert cut == {f"org/x/C{i}.java" for i in range(4)}
    (kept,) = [c for c in over if c.path == "org/x/Own.java"]
    assert leg_text(kept, "vector") == kept.text


def test_line_numbers_kept_when_the_header_spans_chunks():
    """Windows of 3 lines over a 4-line header: the first window is all header (kept whole: nothing else to
    read), the second starts inside it and loses only the header's lines; later windows are untouched."""
    chunker = SharedHeaderChunker(LineChunker(size=3, overlap=0), min_files=1)
    got = chunk_files(chunker, corpus(2))
    plain = chunk_files(LineChunker(size=3, overlap=0), corpus(2))
    assert [c.id for c in got] == [c.id for c in plain] and [c.text for c in got] == [c.text for c in plain]
    first = [c for c in got if c.path == "org/x/C0.java"]
    assert (first[0].start, first[0].end, header_cut(first[0])) == (1, 3, None)
    assert (first[1].start, first[1].end, header_cut(first[1]).lines) == (4, 6, 1)
    assert leg_text(first[1], "vector") == "package org.x;\n"
    assert all(header_cut(c) is None for c in first[2:])


def test_header_text_differing_by_a_year_is_not_shared():
    years = [java(f"Y{i}", f"// Copyright 20{10 + i} The Authors\n") for i in range(5)]
    assert not any(header_cut(c) for c in chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=1), years))


def test_record_totals():
    got = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=1), corpus(3))
    totals = cut_totals(got)
    assert totals == {"files": 3, "chunks": 3, "lines": 12, "tokens": 3 * header_cut(got[0]).tokens}
    assert header_removed(totals) == {"header_removed": totals}
    assert header_removed(cut_totals(chunk_files(WholeFileChunker(), corpus(3)))) == {}


@pytest.mark.parametrize("bad", [{"min_files": 0}, {"drop_for": ()}, {"drop_for": ("bm25",)}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError):
        SharedHeaderChunker(WholeFileChunker(), **bad)
