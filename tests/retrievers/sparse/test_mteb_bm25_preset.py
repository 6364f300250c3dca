"""The mteb_bm25 preset is MTEB's BM25 baseline: bm25s.tokenize with English stopwords and
PyStemmer's English stemmer, Lucene BM25 with bm25s's defaults, on queries and documents."""
from __future__ import annotations

import bm25s
import Stemmer

from hermes_eval.config.parts import instantiate_part


def test_preset_tokenizes_as_bm25s_with_stopwords_and_stemming(make_cfg):
    cfg = make_cfg("retriever=mteb_bm25")
    index = instantiate_part(cfg.retriever.sparse)
    assert (index.method, index.k1, index.b) == ("lucene", 1.5, 0.75)  # bm25s.BM25() defaults
    text = "Parsing the JSON files, then running parseJSON on the outputs"
    want = bm25s.tokenize([text], stopwords="en", stemmer=Stemmer.Stemmer("english"), return_ids=False,
                          show_progress=False)[0]
    assert index.tokenizer(text) == want
    assert "the" not in want and "run" in want and "pars" in want  # stopword dropped, stems kept


def test_preset_matches_an_inflected_form_the_code_tokenizer_misses(make_cfg):
    cfg = make_cfg("retriever=mteb_bm25")
    docs = {"a": "def job(fast):\n    # runs the job quickly", "b": "def sort_items(xs):\n    return sorted(xs)"}
    mteb = instantiate_part(cfg.retriever.sparse)
    mteb.build(list(docs), list(docs.values()))
    code = instantiate_part(make_cfg("retriever=bm25s").retriever.sparse)
    code.build(list(docs), list(docs.values()))
    assert [h[0] for h in mteb.search(["running"], 5)[0]] == ["a"]
    assert code.search(["running"], 5)[0] == []  # no stemming: "running" never matches "runs"
    # and, as in MTEB, identifiers are not split: sort_items is one token there, two in ours
    assert mteb.search(["items"], 5)[0] == [] and [h[0] for h in code.search(["items"], 5)[0]] == ["b"]
