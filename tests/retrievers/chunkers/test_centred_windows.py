"""CodeRAG-Bench's RepoEval windows: the spans its script cuts (transcribed here from
retrieval/create/repoeval_repo.py, independently of the chunker), and the repository-wide merge."""
from __future__ import annotations

import pytest

from hermes_eval.core import Corpus, CorpusFile
from hermes_eval.stages.snapshots import chunk_by_content
from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.centred_windows import CentredWindowChunker


def script_windows(code: str, window_size: int = 20, slice_size: int = 2) -> list[tuple[int, int]]:
    """The published loop, 0-based half-open [start, end), as (start + 1, end) 1-based inclusive."""
    lines = code.splitlines()
    step = 1 if window_size // slice_size == 0 else window_size // slice_size
    delta = window_size // 2
    out = []
    for line_no in range(0, len(lines), step):
        start, end = max(0, line_no - delta), min(len(lines), line_no + window_size - delta)
        if lines[start:end]:
            out.append((start + 1, end))
    return out


@pytest.mark.parametrize("n", [1, 5, 9, 10, 11, 19, 20, 21, 25, 40, 41, 137])
def test_spans_are_the_scripts(n):
    code = "\n".join(f"x{i} = {i}" for i in range(n)) + "\n"
    got = [(c.start, c.end) for c in CentredWindowChunker().chunk("m.py", code, "python")]
    assert got == script_windows(code)
    assert got[0] == (1, min(n, 10))  # a file opens with half a window


def test_other_sizes_follow_the_same_rule():
    code = "\n".join(f"y{i}()" for i in range(57))
    got = [(c.start, c.end) for c in CentredWindowChunker(size=30, step=5).chunk("m.py", code, "python")]
    assert got == script_windows(code, window_size=30, slice_size=6)


def test_blank_windows_are_dropped_and_text_is_the_lines():
    code = "a = 1\n" + "\n" * 30 + "b = 2\n"
    chunks = CentredWindowChunker().chunk("m.py", code, "python")
    assert all(c.text.strip() for c in chunks)
    assert len(chunks) < len(script_windows(code))  # the script keeps the all-blank ones
    lines = code.split("\n")
    assert all(c.text == "\n".join(lines[c.start - 1:c.end]) for c in chunks)


def test_identical_windows_merge_to_the_first_in_path_order():
    header = "".join(f"# licence line {i}\n" for i in range(12))
    files = [("r/b.py", header + "def b():\n    return 2\n", "python"),
             ("r/a.py", header + "def a():\n    return 1\n", "python")]
    chunks = chunk_files(CentredWindowChunker(), files)
    first = [c for c in chunks if c.start == 1 and c.end == 10]  # the licence-only half window
    assert [c.path for c in first] == ["r/a.py"] and first[0].meta["copies"] == ["r/b.py:1-10"]
    assert {c.path for c in chunks if c.end > 10} == {"r/a.py", "r/b.py"}  # different text stays
    unmerged = chunk_files(CentredWindowChunker(merge_identical=False), files)
    assert len(unmerged) == len(chunks) + 1


def test_the_merge_stays_inside_one_repository():
    text = "".join(f"v{i} = {i}\n" for i in range(15))
    corpus = Corpus(name="two", files=(CorpusFile("one/m.py", "one", "python", text),
                                       CorpusFile("two/m.py", "two", "python", text),
                                       CorpusFile("two/n.py", "two", "python", text)))
    chunks, _ = chunk_by_content(CentredWindowChunker(), corpus, ["one/", "two/"])
    assert sorted({c.path for c in chunks}) == ["one/m.py", "two/m.py"]  # two/n.py merged into two/m.py
    kept = {c.path: c for c in chunks if c.start == 1 and c.end == 10}
    assert "copies" not in kept["one/m.py"].meta and kept["two/m.py"].meta["copies"] == ["two/n.py:1-10"]
