"""Line windows, their presets, line splitting, and the HERMES heuristic."""
from __future__ import annotations

from chunker_samples import GO, check_invariants, from_config

from retrievers.chunkers.base import split_lines
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.lines import LineChunker


def spans(chunks) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in chunks]


def test_lines_split_on_newline_only_like_ast_and_tree_sitter():
    text = "a = 1\x0c\nb = '\u2028'\nc = 3\n"
    assert split_lines(text) == ["a = 1\x0c", "b = '\u2028'", "c = 3"]
    assert split_lines("") == [] and split_lines("x") == ["x"] and split_lines("x\n\n") == ["x", ""]


def test_repo_search_preset_is_100_lines_with_20_overlap():
    text = "\n".join(f"x{i} = {i}" for i in range(1, 251))
    assert spans(from_config("lines_repo_search").chunk("a.py", text, "python")) == [(1, 100), (81, 180), (161, 250)]


def test_repocoder_preset_is_20_lines_stride_10():
    text = "\n".join(f"x{i} = {i}" for i in range(1, 46))
    assert spans(from_config("lines_repocoder").chunk("a.py", text, "python")) == [(1, 20), (11, 30), (21, 40), (31, 45)]


def test_line_windows_drop_blank_windows():
    text = "a\n\n\n\n\n\nb\n"
    assert spans(LineChunker(size=2, overlap=0).chunk("f.txt", text, "text")) == [(1, 2), (7, 7)]


def test_heuristic_breaks_before_a_hint_and_takes_its_comment_along():
    chunks = check_invariants(HeuristicChunker(max_chars=200, overlap_lines=0), "geo/point.go", GO, "go")
    starts = [c.start for c in chunks]
    assert 13 in starts  # "// Dist returns ..." above "func (p *Point) Dist": the cut is before the comment
    assert all(len(c.text) <= 200 for c in chunks)


def test_heuristic_overlaps_and_names_the_first_definition():
    chunks = HeuristicChunker(max_chars=200, overlap_lines=3).chunk("geo/point.go", GO, "go")
    assert chunks[1].start == chunks[0].end + 1 - 3
    assert chunks[-1].symbol == "Add"


def test_heuristic_without_hints_fills_up_to_the_cap():
    text = "\n".join(f"value_{i} = compute({i})" for i in range(40))
    chunks = HeuristicChunker(max_chars=300, overlap_lines=0).chunk("c.txt", text, "text")
    assert all(len(c.text) <= 300 for c in chunks)
    assert all(len(c.text) + len(text.split("\n")[c.end]) + 1 > 300 for c in chunks[:-1])


def test_heuristic_gives_an_overlong_line_its_own_chunk():
    text = "short\n" + "x" * 5000 + "\nshort again\n"
    assert spans(HeuristicChunker(max_chars=100, overlap_lines=3).chunk("m.js", text, "javascript")) == \
        [(1, 1), (2, 2), (3, 3)]
