"""Doc comment -> definition queries for Go, Rust, JS/TS (and Python docstrings), on real files."""
from __future__ import annotations

from hermes_eval.core import Span
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.judge.corpus_leaks import LeakRules, corpus_leak_places
from hermes_eval.judge.hygiene import check
from hermes_eval.querysets.generators.doc_comments import DocCommentQueries


def _by_symbol(qs):
    return {(q.meta["language"], q.meta["symbol"]): q for q in qs.queries}


def test_each_language_gives_its_doc_comment_and_definition_span(polyglot_corpus):
    qs = DocCommentQueries(max_queries=1000).generate(polyglot_corpus, "dc")
    got = _by_symbol(qs)
    go = got[("go", "IgnoreFields")]
    assert go.query.startswith("IgnoreFields returns an Option that ignores fields of the given names on a single struct type.")
    assert "e.g., \"Foo.Bar\"" not in go.query  # second paragraph not taken
    assert go.gold == (Span("go-cmp/cmpopts/ignore.go", 24, 27),)
    assert go.meta["mask"] == [{"path": "go-cmp/cmpopts/ignore.go", "start": 17, "end": 23}]
    assert go.meta["starts_with_symbol"] is True and go.kind == "doc_comment"

    rust = got[("rust", "Version")]  # a 49-line /// block with headings; the #[derive] is part of the item
    assert rust.query == "SemVer version as defined by <https://semver.org>."
    assert rust.gold == (Span("rust-semver/src/lib.rs", 161, 168),)
    assert rust.meta["mask"][0]["start"] == 112 and rust.meta["mask"][0]["end"] == 160
    assert ("rust", "Version.new") in got  # a method inside `impl Version`

    js = got[("javascript", "Argument.default")]  # JSDoc, a blank line before the method, @param tags dropped
    assert js.query == "Set the default value, and optionally supply the description to be displayed in the help."
    assert js.gold == (Span("js-commander/lib/argument.js", 72, 76),)
    assert js.meta["mask"] == [{"path": "js-commander/lib/argument.js", "start": 64, "end": 70}]

    ts = got[("typescript", "hashKey")]
    assert ts.query.startswith("Default query & mutation keys hash function.")
    assert ts.gold[0].path == "ts-query-core/src/utils.ts"
    assert {q.meta["language"] for q in qs.queries} == {"go", "rust", "javascript", "typescript"}


def test_masking_removes_every_doc_comment_and_keeps_the_code(polyglot_corpus):
    qs = DocCommentQueries(max_queries=1000).generate(polyglot_corpus, "dc")
    indexed = mask_corpus(polyglot_corpus, qs.masks).by_path()
    original = polyglot_corpus.by_path()
    for q in qs.queries:
        text = indexed[q.gold[0].path].text
        assert " ".join(q.query.split()[:8]) not in " ".join(text.split()), q.qid
        assert len(text.split("\n")) == len(original[q.gold[0].path].text.split("\n"))
    go = indexed["go-cmp/cmpopts/ignore.go"].text.split("\n")
    assert go[23] == "func IgnoreFields(typ interface{}, names ...string) cmp.Option {"
    assert go[16:23] == [""] * 7
    hygiene = check(qs, mask_corpus(polyglot_corpus, qs.masks))
    assert hygiene.self_retrieval == 0 and hygiene.leak_in_gold == 0
    places = corpus_leak_places(qs.queries, {p: f.text for p, f in indexed.items()}, LeakRules())
    assert places == {}


def test_skip_reasons_are_counted(inline_corpus):
    corpus = inline_corpus({
        "pkg/a.go": '''\
            package pkg

            //go:generate stringer -type=Kind
            type Kind int

            // TODO: remove this helper once callers moved
            func helper() {}

            // Short one.
            func short() {}

            // Parse reads the whole configuration file and returns its sections.
            func Parse() {}
            ''',
        "web/a.js": '''\
            /**
             * @param {string} name
             * @returns {number}
             */
            function tagsOnly(name) { return 1 }

            /** Compute the checksum of every chunk in the stream. */
            function checksum(stream) { return 0 }

            /* Plain block comments are not JSDoc, so this is no query. */
            function plain() {}
            ''',
        "web/broken.ts": "export function ok( {\n",
        "lib.rs": '''\
            //! Module docs are not item docs and make no query.

            /// Build the index from every file of the crate.
            pub fn build() {}
            ''',
    })
    qs = DocCommentQueries(max_queries=100).generate(corpus, "dc")
    assert sorted(q.meta["symbol"] for q in qs.queries) == ["Parse", "build", "checksum"]
    sk = qs.manifest["skipped"]
    assert sk["boilerplate"] == 1 and sk["short_comment"] == 1 and sk["tags_only"] == 1 and sk["parse_error"] == 1
    assert {q.qid: q.query for q in qs.queries}["lib.rs:4:build"] == "Build the index from every file of the crate."


def test_python_docstrings_join_the_set_and_sampling_is_balanced_and_deterministic(polyglot_corpus, shop_corpus):
    from dataclasses import replace

    both = replace(polyglot_corpus, files=polyglot_corpus.files + shop_corpus.files)
    gen = DocCommentQueries(max_queries=9, seed=3)
    a, b = gen.generate(both, "dc"), gen.generate(both, "dc")
    assert [q.to_dict() for q in a.queries] == [q.to_dict() for q in b.queries]
    counts = a.manifest["per_language"]
    # python has 2 docstrings and typescript 1 candidate: they are taken whole, the rest share evenly
    assert counts["python"] == 2 and counts["typescript"] == 1 and counts["go"] == counts["rust"] == 2
    assert counts["javascript"] == 2
    assert DocCommentQueries(max_queries=9, seed=4).generate(both, "dc").queries != a.queries


def test_a_doc_repeated_elsewhere_in_the_corpus_is_skipped(inline_corpus):
    # immer does this: the class method's doc is repeated above the bound re-export in immer.ts
    corpus = inline_corpus({
        "src/core.ts": '''\
            export class Store {
              /**
               * Pass true to automatically freeze all copies created by the store.
               *
               * On by default.
               */
              setAutoFreeze(value: boolean) {
                this.freeze = value
              }

              /** Drop every entry and reset the counters. */
              clear() {
                this.n = 0
              }
            }
            ''',
        "src/index.ts": '''\
            import { Store } from './core'
            const store = new Store()
            /**
             * Pass true to automatically freeze all copies created by the store.
             */
            export const setAutoFreeze = store.setAutoFreeze.bind(store)
            ''',
    })
    qs = DocCommentQueries(max_queries=10).generate(corpus, "dc")
    assert [q.meta["symbol"] for q in qs.queries] == ["Store.clear"]
    assert qs.manifest["skipped"]["text_elsewhere"] == 1
