"""The query-set side of Java and C on real files (tests/slices/langs-java-c, PROVENANCE.md there):
definitions, doc-comment queries with the comment masked from the indexed corpus, function-body holes
and their resolved gold; and the presets listing neither language keeping what they make."""
from __future__ import annotations

from pathlib import Path

import pytest

from hermes_eval.core import Span
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.corpus.grammars import parse
from hermes_eval.corpus.masking import mask_corpus
from hermes_eval.querysets.generator_key import generator_key, probe_corpus
from hermes_eval.querysets.generators.doc_comments import DocCommentQueries
from hermes_eval.querysets.generators.repoeval_polyglot import PolyglotRepoEvalQueries
from hermes_eval.querysets.holes import HoleRules
from hermes_eval.querysets.treesitter.definitions import definitions
from hermes_eval.querysets.treesitter.doc_comments import c_prose, javadoc_prose
from hermes_eval.querysets.treesitter.holes import function_body_holes
from retrievers.identity.probe import first_probe_files

SLICE = Path(__file__).resolve().parents[3] / "slices" / "langs-java-c"
LANGUAGE = {".java": "java", ".c": "c", ".h": "c"}


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus("langs-java-c", tuple(CorpusFile(p.name, "redis-tomcat", LANGUAGE[p.suffix], p.read_text(encoding="utf-8"))
                                        for p in sorted(SLICE.iterdir()) if p.suffix in LANGUAGE))


def _file(corpus: Corpus, path: str) -> CorpusFile:
    return next(f for f in corpus.files if f.path == path)


def _defs(corpus: Corpus, path: str):
    f = _file(corpus, path)
    root = parse(f.text, f.language, f.path).root_node
    assert not root.has_error
    return definitions(root, f.language, f.path)


def test_java_definitions(corpus):
    got = {(d.symbol, d.kind, d.start, d.end) for d in _defs(corpus, "ApplicationMapping.java")}
    assert got == {("ApplicationMapping", "class", 27, 122), ("ApplicationMapping.ApplicationMapping", "method", 38, 40),
                   ("ApplicationMapping.getHttpServletMapping", "method", 47, 90),
                   ("ApplicationMapping.recycle", "method", 95, 97), ("ApplicationMapping.MappingImpl", "class", 99, 121),
                   *{(f"ApplicationMapping.MappingImpl.{m}", "method", s, s + 3) for m, s in (
                       ("getMatchValue", 102), ("getPattern", 107), ("getServletName", 112), ("getMappingMatch", 117))}}
    assert [(d.symbol, d.kind, d.start, d.end) for d in _defs(corpus, "FrameType.java")][:2] == [
        ("FrameType", "type", 23, 105), ("FrameType.FrameType", "method", 48, 55)]


def test_c_definitions(corpus):
    got = [(d.symbol, d.kind, d.start, d.end, d.body is not None) for d in _defs(corpus, "sds.h")]
    assert got[:2] == [("sds", "type", 43, 43, False), ("sdshdr5", "type", 47, 50, False)]
    assert ("SDS_HDR", "function", 84, 84, False) in got and ("sdslen", "function", 87, 102, True) in got
    assert got[-1] == ("sdstemplate_callback_t", "type", 263, 263, False)
    assert [d.symbol for d in _defs(corpus, "slowlog.c")] == [
        "slowlogCreateEntry", "slowlogFreeEntry", "slowlogInit", "slowlogPushEntryIfNeeded", "slowlogReset", "slowlogCommand"]


def test_doc_comment_queries_for_java_and_c_with_their_comments_masked(corpus):
    qs = DocCommentQueries(languages=("java", "c"), max_queries=1000).generate(corpus, "t")
    by_gold = {(q.gold[0].path, q.gold[0].start, q.gold[0].end): q for q in qs.queries}
    expected = {
        ("ApplicationMapping.java", 27, 122): ("Holds servlet mapping data for a single request.", 24, 26),
        ("ApplicationMapping.java", 38, 40): ("Constructs a new ApplicationMapping.", 33, 37),
        ("ClusterDeployer.java", 87, 87): ("Returns the cluster associated with this deployer.", 82, 86),
        ("slowlog.c", 135, 138): ("Remove all the entries from the current slow log.", 134, 134),
        ("slowlog.c", 114, 118): ("Initialize the slow log. This function should be called a single time at server "
                                  "startup.", 112, 113),
        ("sds.h", 263, 263): None,  # a typedef's comment: checked below by its mask only
    }
    for gold, want in expected.items():
        q = by_gold[gold]
        assert q.meta["language"] == LANGUAGE[Path(gold[0]).suffix] and q.kind == "doc_comment"
        if want is not None:
            assert (q.query, q.meta["mask"]) == (want[0], [{"path": gold[0], "start": want[1], "end": want[2]}])
    assert {q.meta["language"] for q in qs.queries} == {"java", "c"}
    masked = mask_corpus(corpus, [Span(**m) for q in qs.queries for m in q.meta["mask"]])
    for q in qs.queries:
        f = _file(masked, q.gold[0].path)
        lines = f.text.split("\n")
        mask = q.meta["mask"][0]
        assert not "".join(lines[mask["start"] - 1:mask["end"]]).strip(), q.qid  # the doc comment is gone
        original = _file(corpus, f.path).text.split("\n")
        assert lines[q.gold[0].start - 1] == original[q.gold[0].start - 1], q.qid  # the code stays


def test_the_default_languages_read_no_java_or_c(corpus):
    assert not DocCommentQueries().generate(corpus, "t").queries
    assert not PolyglotRepoEvalQueries().generate(corpus, "t").queries


def test_prose_of_javadoc_and_c_comments():
    assert javadoc_prose(("/**\n * Add up {@code shapes}, <b>all</b> of them.\n * <p>\n * Second.\n * @param x the x\n */",)) \
        == "Add up shapes, all of them."
    assert c_prose(("/* Free a slow log entry.\n *\n * More. */",)) == "Free a slow log entry."
    assert c_prose(("// one", "// two")) == "one two"


def test_function_body_holes(corpus):
    rules = HoleRules(min_target_chars=10, max_hole_lines=8, min_body_lines=3, max_body_lines=60)
    holes = {(h.path, fn.symbol, h.start, h.end) for path in ("slowlog.c", "FrameType.java")
             for h, fn in function_body_holes(path, "r", _defs(corpus, path), rules)}
    assert ("slowlog.c", "slowlogFreeEntry", 101, 110) in holes
    assert ("FrameType.java", "FrameType.FrameType", 50, 55) in holes  # a constructor's body
    # the body's first line inside the braces is its first statement or comment (line 69 is a comment)
    assert ("FrameType.java", "FrameType.check", 69, 86) in holes


def test_repoeval_tasks_resolve_c_names_across_files(corpus):
    qs = PolyglotRepoEvalQueries(languages=("java", "c"), max_queries=1000).generate(corpus, "t")
    by_function = {q.meta["function"]: q for q in qs.queries}
    # slowlog.c uses the sds typedef that only sds.h defines (C's one global namespace)
    q = by_function["slowlogCreateEntry"]
    assert q.gold == (Span("sds.h", 43, 43),) and q.meta["symbols"] == ["sds.h:sds"]
    assert q.exclude == (Span("slowlog.c", 49, 206),)
    assert by_function["slowlogPushEntryIfNeeded"].meta["symbols"] == ["slowlog.c:slowlogCreateEntry"]
    assert by_function["sdsinclen"].meta["symbols"] == ["sds.h:SDS_HDR", "sds.h:SDS_TYPE_5_LEN"]


def test_repoeval_java_gold_from_the_enclosing_class_and_the_package():
    text = (Path(__file__).resolve().parents[4] / "retrievers" / "identity" / "probe_files" / "later" / "Shapes.java").read_text()
    corpus = Corpus("p", (CorpusFile("probe/Shapes.java", "p", "java", text),))
    (q,) = [q for q in PolyglotRepoEvalQueries(languages=("java",)).generate(corpus, "t").queries
            if q.meta["function"] == "Circle.totalArea"]
    assert q.meta["symbols"] == ["probe/Shapes.java:Shape", "probe/Shapes.java:Unit"]


def test_generator_keys_read_the_java_c_probe_files_only_when_listed():
    assert probe_corpus().files == probe_corpus(frozenset()).files
    assert len(probe_corpus().files) == len(first_probe_files())
    assert {f.language for f in probe_corpus(frozenset({"java", "c"})).files} >= {"java", "c"}
    base = {"_target_": "hermes_eval.querysets.generators.doc_comments.DocCommentQueries",
            "languages": ["python", "go", "rust", "javascript", "typescript"]}
    assert generator_key(base) != generator_key({**base, "languages": [*base["languages"], "java", "c"]})
