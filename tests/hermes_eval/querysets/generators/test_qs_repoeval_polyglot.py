"""Function-level RepoEval-style tasks for Go, Rust, JS and TS: holes, exclude spans, gold
resolved within the file and across files, skip reasons, answer_in_prompt, determinism."""
from __future__ import annotations

from hermes_eval.core import Span
from hermes_eval.querysets.generators.repoeval_polyglot import PolyglotRepoEvalQueries


def _tasks(corpus, **kw):
    qs = PolyglotRepoEvalQueries(**dict({"max_queries": 1000}, **kw)).generate(corpus, "rp")
    return qs, {q.qid: q for q in qs.queries}


def test_holes_gold_and_exclude_on_real_files(polyglot_corpus):
    qs, by = _tasks(polyglot_corpus)
    files = polyglot_corpus.by_path()

    go = by["go-cmp/cmpopts/ignore.go:25-27:function"]  # IgnoreFields' body calls newStructFilter
    assert go.gold == (Span("go-cmp/cmpopts/struct_filter.go", 35, 56),)  # same package, other file
    assert go.exclude == (Span("go-cmp/cmpopts/ignore.go", 25, 206),)  # the body and the rest of the file
    assert go.meta["ground_truth"].startswith("\tsf := newStructFilter(typ, names...)")
    assert go.query.endswith("func IgnoreFields(typ interface{}, names ...string) cmp.Option {")
    assert go.meta["language"] == "go" and go.kind == "repoeval-function"

    rust = by["rust-semver/src/eval.rs:31-42:function"]  # `use crate::{..., Op, ...}` then Op::Exact
    assert rust.meta["symbols"] == ["rust-semver/src/lib.rs:Op"]
    assert rust.gold == (Span("rust-semver/src/lib.rs", 251, 266),)

    js = by["js-commander/lib/argument.js:98-111:function"]  # require('./error.js') and this._concatValue
    assert js.meta["symbols"] == ["js-commander/lib/argument.js:Argument._concatValue",
                                  "js-commander/lib/error.js:InvalidArgumentError"]
    assert Span("js-commander/lib/error.js", 25, 36) in js.gold

    ts = by["ts-query-core/src/queryCache.ts:113-131:function"]  # import {hashQueryKeyByOptions} from './utils'
    assert ts.gold == (Span("ts-query-core/src/utils.ts", 193, 199),)
    # `new Query(...)` comes from './query', which is not in the corpus: never guessed
    assert all(g.path in files for q in qs.queries for g in q.gold)
    assert not any("query.ts" in s for q in qs.queries for s in q.meta["symbols"])
    assert qs.manifest["per_language"] == {"go": 2, "javascript": 1, "rust": 2, "typescript": 6}


def test_answer_in_prompt_flags_and_drop(polyglot_corpus):
    qs, by = _tasks(polyglot_corpus)
    flagged = by["ts-query-core/src/queryCache.ts:194-198:function"]  # `find` just above used matchQuery
    assert flagged.meta["answer_in_prompt"] is True
    assert flagged.meta["answer_in_prompt_reason"] == "symbols_in_prompt"
    assert by["go-cmp/cmpopts/ignore.go:25-27:function"].meta["answer_in_prompt"] is False
    dropped, _ = _tasks(polyglot_corpus, drop_answer_in_prompt=True)
    n_flagged = sum(q.meta["answer_in_prompt"] for q in qs.queries)
    assert n_flagged >= 1 and dropped.manifest["skipped"]["answer_in_prompt"] == n_flagged
    assert len(dropped.queries) == len(qs.queries) - n_flagged


def test_skip_reasons_and_determinism(polyglot_corpus):
    a, _ = _tasks(polyglot_corpus, max_queries=5, seed=1)
    b, _ = _tasks(polyglot_corpus, max_queries=5, seed=1)
    assert [q.to_dict() for q in a.queries] == [q.to_dict() for q in b.queries]
    assert {q.meta["language"] for q in a.queries} == {"go", "rust", "javascript", "typescript"}
    sk = a.manifest["skipped"]
    assert sk["no_repo_symbol"] > 0 and sk["gold_after_hole"] > 0 and sk["gold_in_query_context"] > 0
    assert a.manifest["counts"]["holes"] == sum(sk.values()) + a.manifest["counts"]["candidates"] - sk["parse_error"]


def test_locals_shadow_package_names_and_only_the_package_is_searched(inline_corpus):
    corpus = inline_corpus({
        "a/util.go": '''\
            package a

            func clean(s string) string { return s }

            type Box struct{ v int }

            func (b *Box) Get() int { return b.v }
            ''',
        "a/use.go": '''\
            package a

            // run shadows clean with a local and calls the receiver's method.
            func (b *Box) run(x string) int {
                clean := func(s string) string { return s + "!" }
                _ = clean(x)
                return b.Get()
            }

            func other(x string) string {
                y := x + "?"
                return clean(y)
            }
            ''',
        "b/other.go": '''\
            package b

            func far(x string) string {
                z := x
                return clean(z)
            }
            ''',
    })
    _, by = _tasks(corpus, min_context_chars=10, min_body_lines=2)
    run = by["a/use.go:5-8:function"]
    assert run.meta["symbols"] == ["a/util.go:Box.Get"]  # clean is the local closure here
    assert by["a/use.go:11-13:function"].meta["symbols"] == ["a/util.go:clean"]
    assert not any(q.qid.startswith("b/") for q in by.values())  # package b has no clean


def test_rust_use_paths_and_js_imports(inline_corpus):
    corpus = inline_corpus({
        "Cargo.toml": "[package]\nname = \"demo\"\n",
        "src/lib.rs": "pub mod text;\npub mod util;\n",
        "src/text.rs": '''\
            pub struct Words { n: usize }

            impl Words {
                pub fn count(&self) -> usize { self.n }
            }

            pub fn normalize(s: &str) -> String { s.to_lowercase() }
            ''',
        "src/util.rs": '''\
            use crate::text::{normalize as norm, Words};
            use std::collections::HashMap;

            pub fn tally(input: &str) -> usize {
                let clean = norm(input);
                let w = Words { n: clean.len() };
                let _m: HashMap<u8, u8> = HashMap::new();
                w.count()
            }
            ''',
        "web/lib/math.js": '''\
            function add(a, b) { return a + b }
            function sub(a, b) { return a - b }
            module.exports = { add, minus: sub }
            ''',
        "web/main.js": '''\
            const { add, minus } = require('./lib/math')
            const path = require('path')

            function total(xs, sub) {
              const first = add(xs[0], xs[1])
              const diff = minus(first, 1)
              return path.join(String(diff), sub(1, 2))
            }
            ''',
    })
    _, by = _tasks(corpus, min_context_chars=10, min_body_lines=2)
    tally = by["src/util.rs:5-9:function"]
    assert tally.meta["symbols"] == ["src/text.rs:Words", "src/text.rs:normalize"]  # w.count(): type unknown
    total = by["web/main.js:5-8:function"]
    assert total.meta["symbols"] == ["web/lib/math.js:add", "web/lib/math.js:sub"]  # `sub` param is local
