"""A snapshot set's file texts are dropped once chunked and checked; other runs keep theirs."""
from __future__ import annotations

from dataclasses import replace

from hermes_eval.config.settings import settings_from
from hermes_eval.core import Corpus, QuerySet
from hermes_eval.core.corpus import CorpusFile
from hermes_eval.stages.prepare import Prepared, released


def _prepared() -> Prepared:
    files = (CorpusFile("calc@00000001/calc.py", "acme/calc", "python", "def add(a, b):\n    return a + b\n"),
             CorpusFile("calc@00000002/calc.py", "acme/calc", "python", "def add(a, b):\n    return b + a\n"))
    corpus = Corpus("calc", files)
    return Prepared(corpus=corpus, queryset=QuerySet("q", ()), indexed=corpus, reuse={"calc@00000001/": {}})


def test_a_snapshot_sets_texts_are_dropped_and_everything_else_kept(make_cfg):
    p = _prepared()
    light = released(p, settings_from(make_cfg("retriever=bm25")))
    assert [(f.path, f.repo, f.language) for f in light.indexed.files] == \
        [(f.path, f.repo, f.language) for f in p.indexed.files]
    assert all(f.text == "" for f in light.indexed.files)
    assert light.corpus is light.indexed  # one corpus stays one, not two copies
    assert p.indexed.files[1].text.endswith("b + a\n")  # what was prepared is untouched


def test_one_corpus_and_a_service_keep_their_texts(make_cfg):
    p = _prepared()
    single = replace(p, reuse=None)
    assert released(single, settings_from(make_cfg("retriever=bm25"))) is single
    assert released(p, settings_from(make_cfg("retriever=http"))) is p  # spans it returns are judged on them
