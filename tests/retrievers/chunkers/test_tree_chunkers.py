"""cAST (astchunk), tree-sitter symbols and the JS regex chunker on snippets of real-world shape."""
from __future__ import annotations

import pytest
from chunker_samples import AMD, CSHARP, GO, JAVA, JAVASCRIPT, RUST, TYPESCRIPT, check_invariants, from_config

from retrievers.chunkers.heuristic import HeuristicChunker


def symbols(chunks) -> dict:
    return {c.symbol: (c.start, c.end) for c in chunks if c.symbol}


@pytest.mark.parametrize("path, text, language", [("src/Circle.java", JAVA, "java"),
                                                  ("src/Square.cs", CSHARP, "csharp"),
                                                  ("web/user.ts", TYPESCRIPT, "typescript")])
def test_cast_lines_are_one_based_and_meta_is_astchunks(path, text, language):
    chunks = check_invariants(from_config("cast", max_chunk_size=120), path, text, language)
    assert chunks[0].start == 1
    for c in chunks:
        assert (c.meta["start_line_no"], c.meta["end_line_no"], c.meta["line_count"]) == (c.start, c.end, c.n_lines)
        assert 0 < c.meta["chunk_size"] <= 120 and c.meta["node_count"] >= 1
        assert c.meta["chunk_size"] == sum(not ch.isspace() for ch in c.text) or c.meta["node_count"] > 1


def test_cast_names_chunks_by_their_enclosing_definitions():
    chunks = from_config("cast", max_chunk_size=120).chunk("src/Circle.java", JAVA, "java")
    assert symbols(chunks)["Circle.area"] == (13, 16)
    assert symbols(chunks)["Circle.total"] == (18, 25)


def test_cast_covers_a_leaf_bigger_than_the_cap():
    text = "x = 1\nBLOB = '''" + "word " * 400 + "'''\ny = 2\n"
    check_invariants(from_config("cast", max_chunk_size=50), "blob.py", text, "python")


def test_cast_falls_back_for_languages_astchunk_does_not_parse():
    chunker, heuristic = from_config("cast"), HeuristicChunker()
    assert chunker.chunk("geo/point.go", GO, "go") == heuristic.chunk("geo/point.go", GO, "go")


def test_treesitter_go_definitions_with_their_comments():
    chunks = check_invariants(from_config("treesitter"), "geo/point.go", GO, "go")
    assert symbols(chunks) == {"Point": (8, 11), "Point.Dist": (13, 16), "Add": (18, 21), "main": (25, 27)}


def test_treesitter_rust_attributes_join_and_big_impls_open_up():
    whole = check_invariants(from_config("treesitter"), "src/point.rs", RUST, "rust")
    assert [(c.symbol, c.start, c.end, c.meta.get("kind")) for c in whole if c.symbol] == [
        ("Point", 3, 8, "struct_item"), ("Point", 10, 19, "impl_item"),
        ("fmt::Display for Point", 21, 25, "impl_item"), ("Shape", 27, 29, "trait_item")]
    small = symbols(check_invariants(from_config("treesitter", max_chars=150), "src/point.rs", RUST, "rust"))
    assert small["Point.origin"] == (11, 14) and small["Point.dist"] == (16, 18)


def test_treesitter_javascript_functions_classes_and_bindings():
    chunks = check_invariants(from_config("treesitter"), "web/counter.js", JAVASCRIPT, "javascript")
    assert symbols(chunks) == {"add": (3, 8), "double": (10, 10), "Counter": (12, 21),
                               "module.exports.reset": (23, 25)}


def test_treesitter_typescript_declarations():
    chunks = check_invariants(from_config("treesitter"), "web/user.ts", TYPESCRIPT, "typescript")
    assert symbols(chunks) == {"User": (3, 6), "Id": (8, 8), "Role": (10, 13), "UserService": (15, 26),
                               "greet": (28, 30)}


def test_treesitter_opens_a_big_exported_class_into_its_methods():
    small = symbols(check_invariants(from_config("treesitter", max_chars=120), "web/user.ts", TYPESCRIPT,
                                     "typescript"))
    assert small["UserService.add"] == (19, 21) and small["UserService.find"] == (23, 25)


def test_treesitter_finds_definitions_inside_an_amd_wrapper():
    chunks = check_invariants(from_config("treesitter", max_chars=300), "ext/main.js", AMD, "javascript")
    assert symbols(chunks)["toggle_toolbar"] == (7, 11) and "load_extension" in symbols(chunks)


def test_js_regex_typescript_declarations():
    chunks = check_invariants(from_config("js_regex"), "web/user.ts", TYPESCRIPT, "typescript")
    assert symbols(chunks) == {"User": (3, 6), "Id": (8, 8), "Role": (10, 13), "UserService": (16, 26),
                               "greet": (28, 30)}


def test_js_regex_opens_a_big_class_into_methods():
    chunks = check_invariants(from_config("js_regex", max_chars=120), "web/counter.js", JAVASCRIPT, "javascript")
    assert {"Counter.constructor", "Counter.increment"} <= set(symbols(chunks))
    assert symbols(chunks)["add"] == (3, 8)  # the JSDoc block joins its function
