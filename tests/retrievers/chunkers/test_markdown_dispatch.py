"""Markdown sections and the language dispatcher."""
from __future__ import annotations

from chunker_samples import GO, MARKDOWN, PYTHON, SNIPPETS, check_invariants, from_config

from retrievers.chunkers.cast import CASTChunker
from retrievers.chunkers.dispatch import LanguageDispatcher, Route
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.chunkers.markdown import MarkdownChunker
from retrievers.chunkers.tokens import count_tokens
from retrievers.chunkers.treesitter_symbols import TreeSitterSymbolChunker


def test_markdown_sections_carry_their_heading_path():
    chunks = check_invariants(from_config("markdown"), "docs/guide.md", MARKDOWN, "markdown")
    assert [(c.start, c.end, c.symbol) for c in chunks] == [
        (1, 1, None), (3, 5, "Guide"), (7, 14, "Guide > Install"), (16, 20, "Guide > Usage"),
        (22, 25, "Guide > Setext section")]
    assert chunks[2].meta["headings"] == ["Guide", "Install"] and chunks[2].meta["level"] == 2


def test_markdown_fenced_hash_lines_are_not_headings():
    chunks = from_config("markdown").chunk("docs/guide.md", MARKDOWN, "markdown")
    assert not any("shell comment" in (c.symbol or "") for c in chunks)


def test_markdown_hash_lines_inside_html_comments_are_not_headings():
    text = ("# Top\n\n<!-- table of contents\n## Hidden\nSetext hidden\n---\n-->\nbody\n\n"
            "<!-- one line --> \n## Shown\n\ntext\n")
    chunks = from_config("markdown").chunk("README.md", text, "markdown")
    assert [c.symbol for c in chunks] == ["Top", "Top > Shown"]
    assert (chunks[0].start, chunks[0].end, chunks[1].start) == (1, 10, 11)  # the one-line comment stays in Top


def test_markdown_big_section_is_cut_between_paragraphs_then_by_tokens():
    paras = "\n\n".join(f"Paragraph {i} says " + "word " * 8 for i in range(6))
    long_para = "\n".join(f"line {i} of one long paragraph" for i in range(30))
    text = f"# Big\n\n{paras}\n\n{long_para}\n"
    chunker = MarkdownChunker(max_tokens=40, overlap_tokens=10)
    chunks = check_invariants(chunker, "big.md", text, "markdown")
    assert all(count_tokens(c.text) <= 40 for c in chunks) and {c.symbol for c in chunks} == {"Big"}
    para_chunks = [c for c in chunks if c.end < 14]
    assert all(c.text.split("\n")[-1].strip() for c in para_chunks)  # cuts fall between paragraphs
    windows = [c for c in chunks if c.start >= 14]
    assert len(windows) > 2 and all(b.start <= a.end for a, b in zip(windows, windows[1:]))  # they overlap


def test_dispatch_config_routes_each_language():
    chunker = from_config("dispatch")
    assert isinstance(chunker, LanguageDispatcher)
    assert isinstance(chunker.chunker_for("python"), CASTChunker)
    assert isinstance(chunker.chunker_for("rust"), TreeSitterSymbolChunker)
    assert isinstance(chunker.chunker_for("markdown"), MarkdownChunker)
    assert isinstance(chunker.chunker_for("ruby"), HeuristicChunker)
    for language, (path, text) in SNIPPETS.items():
        assert check_invariants(chunker, path, text, language)


def test_dispatch_delegates_and_first_route_wins():
    tree = TreeSitterSymbolChunker()
    chunker = LanguageDispatcher(routes=(Route(("go",), tree), Route(("go", "python"), HeuristicChunker(max_chars=99))),
                                 fallback=HeuristicChunker())
    assert chunker.chunk("p.go", GO, "go") == tree.chunk("p.go", GO, "go")
    assert chunker.chunker_for("python").max_chars == 99
    assert chunker.chunk("x.txt", PYTHON, "text") == HeuristicChunker().chunk("x.txt", PYTHON, "text")


def test_hermes_config_is_the_hermes_chunking_stage():
    chunker = from_config("hermes")
    assert type(chunker.chunker_for("python")).__name__ == "HermesPythonChunker"
    assert type(chunker.chunker_for("typescript")).__name__ == "JSRegexChunker"
    assert isinstance(chunker.chunker_for("go"), HeuristicChunker)
