"""Which chunker really cuts each language: the fallbacks a polyglot board must name."""
from __future__ import annotations

import pytest
from chunker_samples import from_config

from retrievers.chunkers.coverage import fallbacks, handler

POLYGLOT = ["python", "go", "rust", "javascript", "typescript", "markdown"]


@pytest.mark.parametrize("name, expected", [
    ("cast", {"go": "HeuristicChunker", "javascript": "HeuristicChunker", "markdown": "HeuristicChunker",
              "rust": "HeuristicChunker"}),
    ("treesitter", {"markdown": "HeuristicChunker", "python": "HeuristicChunker"}),
    ("treesitter_java_c", {"markdown": "HeuristicChunker", "python": "HeuristicChunker"}),
    ("python_ast", {lang: "LineChunker" for lang in POLYGLOT if lang != "python"}),
    ("js_regex", {lang: "HeuristicChunker" for lang in ("go", "markdown", "python", "rust")}),
    ("dispatch", {}),
    ("hermes", {lang: "HeuristicChunker" for lang in ("go", "markdown", "rust")}),
    ("lines", {}), ("heuristic", {}), ("whole_file", {}),
])
def test_fallbacks_per_chunker(name, expected):
    assert fallbacks(from_config(name), POLYGLOT) == expected


@pytest.mark.parametrize("name, expected", [
    ("treesitter_java_c", {}), ("treesitter", {"c": "HeuristicChunker", "java": "HeuristicChunker"}),
    ("cast", {"c": "HeuristicChunker"}), ("dispatch", {"c": "HeuristicChunker"}),
])
def test_fallbacks_for_java_and_c(name, expected):
    assert fallbacks(from_config(name), ["java", "c"]) == expected


def test_a_dispatch_route_is_the_chunker_itself():
    found, fell = handler(from_config("dispatch"), "go")
    assert type(found).__name__ == "TreeSitterSymbolChunker" and not fell
    found, fell = handler(from_config("dispatch"), "java")
    assert type(found).__name__ == "CASTChunker" and not fell
    found, fell = handler(from_config("dispatch"), "kotlin")
    assert type(found).__name__ == "HeuristicChunker" and fell
