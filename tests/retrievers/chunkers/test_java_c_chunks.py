"""Java and C in the tree-sitter symbol chunker, on real files nobody here wrote (Apache Tomcat and
Redis 7.2.6: tests/slices/langs-java-c/PROVENANCE.md): the definitions it names with their exact
lines, every line of each file in a chunk, no fallback for Java or C once a config lists them, and
the presets that list none (their cached chunks keyed before Java and C) cutting those files as before."""
from __future__ import annotations

import pytest

from chunker_samples import JAVA_C_FILES, SNIPPETS, check_invariants, from_config, java_c_file, lines_of
from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.coverage import fallbacks, handler, probe_chunks
from retrievers.chunkers.treesitter_symbols import TreeSitterSymbolChunker
from retrievers.identity.probe import later_probe_files

PRESET = "treesitter_java_c"

# (symbol, first line, last line, node type) of every definition chunk (split parts: each part)
EXPECTED: dict[str, list[tuple[str, int, int, str]]] = {
    "ApplicationMapping.java": [
        ("ApplicationMapping.ApplicationMapping", 33, 40, "constructor_declaration"),  # Javadoc 33-37 joined
        ("ApplicationMapping.getHttpServletMapping", 42, 72, "method_declaration"),  # over max_chars: two parts
        ("ApplicationMapping.getHttpServletMapping", 70, 90, "method_declaration"),
        ("ApplicationMapping.recycle", 92, 97, "method_declaration"),
        ("ApplicationMapping.MappingImpl", 99, 121, "record_declaration"),
    ],
    "FrameType.java": [
        ("FrameType.FrameType", 48, 55, "constructor_declaration"),
        ("FrameType.getId", 58, 60, "method_declaration"),
        ("FrameType.getIdByte", 63, 65, "method_declaration"),
        ("FrameType.check", 68, 86, "method_declaration"),
        ("FrameType.valueOf", 89, 104, "method_declaration"),
    ],
    "ClusterDeployer.java": [
        ("ClusterDeployer.start", 30, 35, "method_declaration"),
        ("ClusterDeployer.stop", 37, 42, "method_declaration"),
        ("ClusterDeployer.install", 44, 59, "method_declaration"),
        ("ClusterDeployer.remove", 61, 75, "method_declaration"),
        ("ClusterDeployer.backgroundProcess", 77, 80, "method_declaration"),
        ("ClusterDeployer.getCluster", 82, 87, "method_declaration"),
        ("ClusterDeployer.setCluster", 89, 94, "method_declaration"),
    ],
    "slowlog.c": [
        ("slowlogCreateEntry", 45, 75, "function_definition"),
        ("slowlogCreateEntry", 73, 94, "function_definition"),
        ("slowlogFreeEntry", 96, 110, "function_definition"),
        ("slowlogInit", 112, 118, "function_definition"),
        ("slowlogPushEntryIfNeeded", 120, 132, "function_definition"),
        ("slowlogReset", 134, 138, "function_definition"),
        ("slowlogCommand", 140, 178, "function_definition"),
        ("slowlogCommand", 176, 206, "function_definition"),
    ],
    "sds.h": [  # all inside the include guard's #ifndef
        ("sds", 43, 43, "type_definition"),
        ("sdshdr5", 45, 50, "struct_specifier"),
        ("sdshdr8", 51, 56, "struct_specifier"),
        ("sdshdr16", 57, 62, "struct_specifier"),
        ("sdshdr32", 63, 68, "struct_specifier"),
        ("sdshdr64", 69, 74, "struct_specifier"),
        ("SDS_HDR_VAR", 83, 83, "preproc_function_def"),
        ("SDS_HDR", 84, 84, "preproc_function_def"),
        ("SDS_TYPE_5_LEN", 85, 85, "preproc_function_def"),
        ("sdslen", 87, 102, "function_definition"),
        ("sdsavail", 104, 128, "function_definition"),
        ("sdssetlen", 130, 152, "function_definition"),
        ("sdsinclen", 154, 177, "function_definition"),
        ("sdsalloc", 179, 195, "function_definition"),
        ("sdssetalloc", 197, 216, "function_definition"),
        ("sdstemplate_callback_t", 258, 263, "type_definition"),
    ],
}


def _definitions(chunks) -> list[tuple[str, int, int, str]]:
    return [(c.symbol, c.start, c.end, c.meta["kind"]) for c in chunks if "kind" in c.meta]


@pytest.mark.parametrize("name", sorted(JAVA_C_FILES))
def test_definitions_with_their_exact_lines(name):
    path, text, language = java_c_file(name)
    assert _definitions(from_config(PRESET).chunk(path, text, language)) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(JAVA_C_FILES))
def test_every_line_in_a_chunk_and_definitions_apart(name):
    """Every non-blank line is in a chunk; two definitions never share a line (only the parts of one
    split definition overlap, by the splitter's overlap_lines)."""
    path, text, language = java_c_file(name)
    chunks = check_invariants(from_config(PRESET), path, text, language)
    assert {n for c in chunks for n in range(c.start, c.end + 1)} >= {
        n for n, line in enumerate(lines_of(text), 1) if line.strip()}
    defs = [c for c in chunks if "kind" in c.meta]
    for a, b in zip(defs, defs[1:]):
        assert a.end < b.start or (a.symbol == b.symbol and "part" in b.meta), (a.id, b.id)


def test_java_and_c_fall_back_nowhere_once_listed():
    chunker = from_config(PRESET)
    assert fallbacks(chunker, ["java", "c", "go", "rust", "javascript", "typescript"]) == {}
    assert fallbacks(chunker, ["python", "markdown"]) == {"markdown": "HeuristicChunker", "python": "HeuristicChunker"}
    assert handler(chunker, "c") == (chunker, False)


def test_presets_listing_no_java_or_c_cut_them_as_before():
    """The treesitter preset (languages not listed) hands Java and C to its heuristic fallback, exactly as
    before Java and C came: its cached chunks of such files, under its unchanged key, stay right."""
    ts = from_config("treesitter")
    assert ts.languages == ("go", "rust", "javascript", "typescript")
    assert fallbacks(ts, ["java", "c"]) == {"c": "HeuristicChunker", "java": "HeuristicChunker"}
    assert fallbacks(from_config("cast"), ["java", "c"]) == {"c": "HeuristicChunker"}  # astchunk: no C
    for name in JAVA_C_FILES:
        path, text, language = java_c_file(name)
        assert ts.chunk(path, text, language) == ts.fallback.chunk(path, text, language)


def test_a_language_without_a_grammar_is_refused():
    with pytest.raises(ValueError, match="kotlin"):
        TreeSitterSymbolChunker(languages=("go", "kotlin"))


def test_every_chunker_probe_reads_the_java_and_c_probe_files():
    """Five records are Java or C: every chunker's key shows what it makes of those files, so a change
    in how it (or its fallback) cuts Java or C changes its key, whether it parses them or falls back."""
    for name in ("treesitter", "cast", "dispatch", "heuristic", "hermes", "lines", PRESET):
        paths = {c[1] for c in probe_chunks(from_config(name))}
        assert {"later/Shapes.java", "later/ring.c"} <= paths, name
    symbols = {(c[1], c[6]) for c in probe_chunks(from_config(PRESET)) if c[1].startswith("later/")}
    assert {("later/Shapes.java", "Circle"), ("later/Shapes.java", "Unit"),
            ("later/ring.c", "ring_push"), ("later/ring.c", "ring_pop"), ("later/ring.c", "RING_NEXT")} <= symbols
    fallen = {(c[1], c[6]) for c in probe_chunks(from_config("treesitter")) if c[1].startswith("later/")}
    assert fallen != symbols  # the preset listing no Java or C cuts them by its fallback, and its key shows that
    assert [f[2] for f in later_probe_files(frozenset({"java", "c"}))] == ["java", "c"]


def test_the_c_snippet_names_its_definitions():
    path, text = SNIPPETS["c"]
    assert [(c.symbol, c.start, c.end) for c in from_config(PRESET).chunk(path, text, "c") if "kind" in c.meta] == [
        ("MAX", 3, 3), ("list", 5, 9), ("node", 11, 14), ("list_dump", 17, 22), ("list_max", 25, 31)]
