"""HERMES' Python chunker, and the skeleton's python_ast chunker still built from its config."""
from __future__ import annotations

from chunker_samples import PYTHON, check_invariants, from_config

from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.hermes_python import HermesPythonChunker
from retrievers.chunkers.python_ast import PythonASTChunker


def by_symbol(chunks) -> dict:
    return {c.symbol: (c.start, c.end, c.meta.get("kind")) for c in chunks if c.symbol}


def test_top_level_functions_async_functions_and_classes():
    chunks = check_invariants(from_config("hermes_python"), "pkg/mod.py", PYTHON, "python")
    assert by_symbol(chunks) == {"top": (7, 10, "function"), "fetch": (13, 14, "async_function"),
                                 "Thing": (17, 24, "class")}  # the decorator (line 7) is in; methods stay in


def test_module_level_code_is_covered_by_the_heuristic():
    chunks = from_config("hermes_python").chunk("pkg/mod.py", PYTHON, "python")
    assert (chunks[0].start, chunks[-1].end) == (1, 28)


def test_oversized_block_is_split_with_overlap():
    body = "\n".join(f"    total += item_{i} * weight_{i}" for i in range(60))
    text = f"def big():\n    total = 0\n{body}\n    return total\n"
    chunks = check_invariants(HermesPythonChunker(max_chars=400, overlap_lines=3), "b.py", text, "python")
    assert len(chunks) > 3 and {c.symbol for c in chunks} == {"big"}
    assert all(b.start == a.end + 1 - 3 for a, b in zip(chunks, chunks[1:]))
    assert all(len(c.text) <= 400 for c in chunks)


def test_syntax_error_and_other_languages_fall_back_to_the_heuristic():
    broken = PYTHON.replace("def top(a, b):", "def top(a, b)")
    heuristic = HeuristicChunker()
    chunker = from_config("hermes_python")
    assert chunker.chunk("m.py", broken, "python") == heuristic.chunk("m.py", broken, "python")
    assert chunker.chunk("m.rb", "def x\nend\n", "ruby") == heuristic.chunk("m.rb", "def x\nend\n", "ruby")


def test_python_ast_config_still_builds_the_skeleton_chunker():
    chunker = from_config("python_ast")
    assert isinstance(chunker, PythonASTChunker) and chunker.max_lines == 80
    chunks = check_invariants(chunker, "pkg/mod.py", PYTHON, "python")
    assert {"top", "fetch", "Thing"} <= {c.symbol for c in chunks}
