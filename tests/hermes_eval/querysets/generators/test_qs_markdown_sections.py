"""Markdown heading -> section queries: gold lines, the heading masked, leaking headings skipped."""
from __future__ import annotations

from hermes_eval.core import Span
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.judge.corpus_leaks import LeakRules, corpus_leak_places
from hermes_eval.judge.hygiene import check
from hermes_eval.querysets.generators.markdown_sections import MarkdownSectionQueries, heading_text


def test_sections_of_a_real_readme(polyglot_corpus):
    qs = MarkdownSectionQueries().generate(polyglot_corpus, "md")
    by = {q.query: q for q in qs.queries}
    simple = by["Simple Example"]
    assert simple.gold == (Span("md-yargs/README.md", 59, 81),)
    assert simple.meta["mask"] == [{"path": "md-yargs/README.md", "start": 58, "end": 58}]
    assert simple.meta["heading_path"][-1] == "Simple Example" and simple.meta["language"] == "markdown"
    assert sorted(by) == ["Complex Example", "Simple Example", "Supported Node.js Versions",
                          "Table of Contents", "Usage in Browser"]
    indexed = mask_corpus(polyglot_corpus, qs.masks)
    text = indexed.by_path()["md-yargs/README.md"].text.lower()
    assert all(q.query.lower() not in text for q in qs.queries)
    h = check(qs, indexed)
    assert h.self_retrieval == 0 and h.leak_in_gold == 0
    assert corpus_leak_places(qs.queries, {p: f.text for p, f in indexed.by_path().items()}, LeakRules(min_query_chars=10)) == {}


def test_leaking_short_and_empty_headings_are_skipped(inline_corpus):
    corpus = inline_corpus({
        "docs/guide.md": '''\
            # Guide

            - [Configure the cache](#configure-the-cache)

            ## Configure the cache

            Set `cache_dir` to a shared folder.

            ## Rebuild an index

            Run rebuild whenever the Rebuild an index button is greyed out.

            ## Parent section
            ### Sub section under parent

            Text of the sub section.

            Stream the results
            ------------------

            Results arrive one page at a time.

            ```markdown
            # Not a heading in a fence
            ```
            ''',
    })
    qs = MarkdownSectionQueries(min_words=2).generate(corpus, "md")
    got = {q.query: q for q in qs.queries}
    assert set(got) == {"Sub section under parent", "Stream the results"}
    assert got["Stream the results"].meta["mask"] == [{"path": "docs/guide.md", "start": 18, "end": 19}]  # setext
    assert got["Stream the results"].gold == (Span("docs/guide.md", 20, 25),)
    assert got["Sub section under parent"].gold == (Span("docs/guide.md", 15, 16),)
    sk = qs.manifest["skipped"]
    # Guide: one word; Configure the cache: in the table of contents; Rebuild an index: in its own
    # section; Parent section: no prose of its own
    assert sk == {"short_heading": 1, "text_elsewhere": 1, "text_in_gold": 1, "empty_section": 1, "duplicate_text": 0}


def test_heading_text_drops_markup():
    assert heading_text("The [`run`](api.md#run) **command** <a id='x'></a>") == "The run command"
