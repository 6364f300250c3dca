"""Corpus-wide leaks: a query's text found outside its gold, with the places named."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from hermes_eval.core import Query, Span
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.core.queryset import QuerySet
from hermes_eval.judge.corpus_leaks import CorpusText, LeakRules, corpus_leak_places, leak_places
from hermes_eval.judge import hygiene

DOC = "Parse the retry header and return the number of seconds the client should wait."
CODE = "\n".join(["import time", "", "", "def retry_after(value):",
                  "    # (masked docstring)", "    return int(value)", ""])
WORDS = DOC.split()
README = "\n".join(["# Usage", "", "Call retry_after:", "", "    " + " ".join(WORDS[:7]), "    " + " ".join(WORDS[7:]), ""])
LONG = " ".join(f"word{i}" for i in range(80))  # 479 characters


def corpus(**files: str) -> Corpus:
    return Corpus(name="c", files=tuple(CorpusFile(p.replace("__", "/").replace("_md", ".md").replace("_py", ".py"),
                                                   "r", "python", t) for p, t in sorted(files.items())))


def check(qs: QuerySet, c: Corpus, corpus_leaks: LeakRules | None = None):
    """Hygiene with the corpus-wide search as a run does it (off when no rules are given)."""
    places = corpus_leak_places(qs.queries, {f.path: f.text for f in c.files}, corpus_leaks) if corpus_leaks else None
    return hygiene.check(qs, c, corpus_places=places, corpus_leak_chars=corpus_leaks.min_run if corpus_leaks else None)


def test_a_planted_copy_in_a_readme_is_a_leak_with_its_place():
    c = corpus(pkg__mod_py=CODE, README_md=README)
    q = Query("q", DOC, gold=(Span("pkg/mod.py", 4, 6),), meta={"mask": [{"path": "pkg/mod.py", "start": 5, "end": 5}]})
    h = check(QuerySet("s", (q,)), c, corpus_leaks=LeakRules())
    assert (h.leak, h.leak_elsewhere, h.leak_in_gold) == (1, 1, 0)
    assert h.places["q"] == ("README.md:5-6",)  # the copy runs over two lines, found across them
    assert h.to_dict()["named"]["leak_places"] == {"q": ["README.md:5-6"]} and h.to_dict()["leak_share"] == 1.0
    assert check(QuerySet("s", (q,)), corpus(pkg__mod_py=CODE)).leak == 0


def test_gold_exclude_and_origin_are_not_leaks():
    text = "x = 1\n" + DOC + "\n"
    c = corpus(a_py=text, b_py=text, c_py=text, d_py="y = 2\n")
    q = Query("q", DOC, gold=(Span("a.py", 1, 2),), exclude=(Span("b.py", 2, 2),),
              meta={"origin": [{"path": "c.py", "start": 2, "end": 2}]})
    assert leak_places(q, CorpusText({f.path: f.text for f in c.files}), LeakRules()) == []


def test_a_long_query_leaks_through_a_long_run_not_a_short_one():
    rules = LeakRules(min_run=200, min_query_chars=30)
    place = corpus(x_py="a = 1\n" + LONG[100:330] + "\n", y_py=LONG[:150] + "\n")
    text = CorpusText({f.path: f.text for f in place.files})
    assert leak_places(Query("q", "intro " + LONG, gold=()), text, rules) == [Span("x.py", 2, 2)]


def test_short_queries_never_leak_corpus_wide():
    c = corpus(a_py="def parse(): pass\n# parse the header\n")
    q = Query("q", "parse the header", gold=(Span("a.py", 1, 1),))
    assert check(QuerySet("s", (q,)), c, corpus_leaks=LeakRules(min_query_chars=30)).leak_elsewhere == 0
    assert check(QuerySet("s", (q,)), c, corpus_leaks=LeakRules(min_query_chars=10)).leak_elsewhere == 1


def test_a_completion_tasks_own_left_context_is_its_origin():
    q = Query("t", "ctx", gold=(), exclude=(Span("m.py", 30, 40),), meta={"context_start": 10, "hole": [30, 32]})
    assert q.origin() == (Span("m.py", 10, 29),)


@pytest.mark.parametrize("others, leaks", [(2, True), (4, True), (5, False)])
def test_text_in_more_than_max_copies_places_is_boilerplate(others, leaks):
    """A licence header in the task's own file (its origin) and in ``others`` more files: with
    the default max_copies=5, five places in all still count, six are boilerplate."""
    header = " ".join(f"licence clause {i} applies to this file and every file beside it" for i in range(6))
    files = {f"m{i}.py": f"# {header}\nx = {i}\n" for i in range(others)}
    files["task.py"] = f"# {header}\ndef f():\n    return 1\n"
    q = Query("t", f"# {header}\ndef f():", gold=(), exclude=(Span("task.py", 3, 3),),
              meta={"origin": [{"path": "task.py", "start": 1, "end": 2}]})
    found = leak_places(q, CorpusText(files), LeakRules())
    assert len(found) == (others if leaks else 0)


def test_a_query_only_leaks_into_its_own_snapshot():
    files = {"repo@aaaa/a.py": f"x = 1\n# {DOC}\n", "repo@bbbb/a.py": f"x = 2\n# {DOC}\n",
             "repo@bbbb/b.py": "def f():\n    pass\n"}
    q = Query("q", DOC, gold=(Span("repo@bbbb/b.py", 1, 2),))
    assert corpus_leak_places([q], files, LeakRules(), scopes=("repo@aaaa/", "repo@bbbb/")) == {
        "q": (Span("repo@bbbb/a.py", 2, 2),)}
    assert len(corpus_leak_places([q], files, LeakRules())["q"]) == 2


def test_copies_in_other_snapshots_do_not_make_a_text_boilerplate():
    """Eight snapshots of one repository each hold the query's text once: in the query's own snapshot
    that is one place, a leak; counted over the whole corpus it would be eight (boilerplate)."""
    scopes = tuple(f"repo@{i:04d}/" for i in range(8))
    files = {f"{s}a.py": f"x = {i}\n# {DOC}\n" for i, s in enumerate(scopes)}
    files.update({f"{s}b.py": "def f():\n    pass\n" for s in scopes})
    q = Query("q", DOC, gold=(Span("repo@0003/b.py", 1, 2),))
    assert corpus_leak_places([q], files, LeakRules(), scopes=scopes) == {"q": (Span("repo@0003/a.py", 2, 2),)}
    assert corpus_leak_places([q], files, LeakRules()) == {}  # pooled: 8 copies > max_copies


def test_shared_texts_are_normalized_once_and_map_back_to_each_snapshot():
    text = f"import os\n\n# {DOC}\nx = 1\n"
    memo: dict = {}
    first = CorpusText({"s1/a.py": text, "s1/b.py": "y = 2\n"}, memo)
    second = CorpusText({"s2/0.py": "z = 3\n", "s2/a.py": text}, memo)
    assert len(memo) == 3  # a.py's text normalized once for both snapshots
    for corpus, path in ((first, "s1/a.py"), (second, "s2/a.py")):
        start = corpus.text.index(DOC.lower()[:40])
        assert corpus.span(start, start + 40) == Span(path, 3, 3)


def test_whole_text_normalization_equals_normalizing_each_line():
    """The corpus body (``_body``: str.split's whitespace runs) and the line map a match is mapped back
    with (``_line_map``: one regex pass per file) must both equal the per-line rule (leaks.normalize on
    every line, blank lines left out), offsets and line numbers included."""
    import jinja2
    from pathlib import Path

    from hermes_eval.judge.corpus_leaks import _body, _line_map
    from hermes_eval.judge.leaks import normalize

    texts = [p.read_text() for p in sorted(Path(jinja2.__file__).parent.glob("*.py"))]
    texts += ["", "\n\n", "  A\tB  \r\n\x0bC\x0c D\u2028E\n\u00a0\n  \u0130stanbul  X\x85Y\n", "x" * 50 + "\n  \n y"]
    for text in texts:
        body, offsets, numbers = _line_map(text)
        assert _body(text) == body
        norms = [(n, normalize(line)) for n, line in enumerate(text.split("\n"), start=1) if normalize(line)]
        assert body == " ".join(m for _, m in norms)
        assert list(numbers) == [n for n, _ in norms]
        assert [body[o:o + len(m)] for o, (_, m) in zip(offsets, norms)] == [m for _, m in norms]


def test_many_queries_searched_in_one_scan_find_what_each_finds_alone():
    """A pooled check searches every query's blocks at once (an automaton, past AUTOMATON_FROM blocks);
    the places must be those each query finds by itself (its blocks searched one by one)."""
    from hermes_eval.judge.occurrences import AUTOMATON_FROM

    docs = [" ".join(f"term{(7 * i + j) % 97} part{j}" for j in range(60)) for i in range(40)]
    files = {f"m{i}.py": f"x = {i}\n# {doc}\n" for i, doc in enumerate(docs)}
    files.update({f"copy{i}.md": f"see {docs[i][:260]}\n" for i in range(0, 40, 3)})
    queries = [Query(f"q{i}", docs[i], gold=(Span(f"m{i}.py", 1, 2),)) for i in range(40)]
    rules = LeakRules()
    assert sum(len(doc) // (rules.min_run // 2) for doc in docs) > AUTOMATON_FROM
    text = CorpusText(files)
    alone = {q.qid: tuple(p) for q in queries if (p := leak_places(q, text, rules))}
    assert corpus_leak_places(queries, files, rules) == alone
    assert sorted(alone) == sorted(f"q{i}" for i in range(0, 40, 3))


def test_shared_text_counts_are_the_same_below_and_above_the_sparse_threshold(monkeypatch):
    import random
    from types import SimpleNamespace

    import numpy as np

    from hermes_eval.stages import scoped

    rng = random.Random(4)
    pool = [f"text {i}" for i in range(40)]
    parts = [[SimpleNamespace(text=t) for t in rng.sample(pool, rng.randint(0, 20))] for _ in range(scoped.FEW_PARTS + 3)]
    dense = scoped._shared_texts(parts)  # above FEW_PARTS: the dense incidence product
    for n in (1, 5, scoped.FEW_PARTS):
        assert (scoped._shared_texts(parts[:n]) == dense[:n, :n]).all()
    assert dense.shape == (len(parts), len(parts)) and dense.dtype == np.int64
    monkeypatch.setattr(scoped, "DENSE_CELLS", 0)  # beyond it: the sparse product, the same integers
    sparse = scoped._shared_texts(parts)
    assert sparse.dtype == np.int64 and (sparse == dense).all()
    pairs = [[len({c.text for c in a} & {c.text for c in b}) for b in parts] for a in parts]
    assert dense.tolist() == pairs


WHITESPACE_HEAVY = st.text(alphabet=st.sampled_from(list("aB \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000İx")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(WHITESPACE_HEAVY)
def test_a_files_body_is_its_line_maps_body(text):
    """The corpus text is built from ``_body`` (str.split's whitespace runs) and mapped back to lines by
    ``_line_map`` (regex and per-line strip): the two must agree on every text, Unicode whitespace included."""
    from hermes_eval.judge.corpus_leaks import _body, _line_map

    assert _body(text) == _line_map(text)[0]


def test_a_match_in_a_later_file_maps_to_its_own_lines():
    """Line maps are built only for files a match falls in; the one built must be that file's."""
    files = {"a.py": "x = 1\n\n\ny = 2\n", "b.md": "intro\n\n   " + LONG[:120] + "\n" + LONG[120:] + "\n"}
    text = CorpusText(files)
    start = text.text.index(LONG[60:100])
    assert text.span(start, start + 40) == Span("b.md", 3, 3)
    assert text.span(text.text.index("y = 2"), text.text.index("y = 2") + 5) == Span("a.py", 4, 4)
