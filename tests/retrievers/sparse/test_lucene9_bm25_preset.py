"""The lucene9_bm25 preset is Pyserini's BM25 as CodeRAG-Bench runs it, exactly (Lucene 9's one-byte lengths);
pyserini_bm25 is bm25s's approximation with exact lengths. Where every length is exact in Lucene's byte (below
24 tokens) the two score alike; above, Lucene's quantized lengths show."""
from __future__ import annotations

import math

from hermes_eval.config.parts import instantiate_part
from retrievers.sparse.lucene9 import Lucene9BM25Index
from retrievers.sparse.lucene_norms import byte4_to_int, int_to_byte4
from retrievers.sparse.tokenizer import WhitespaceTokenizer

SHORT = {"a": "def Foo(x): return x.BAR", "b": "class Foo: pass", "c": "return Foo(x) if x else None",
         "d": "import os\nos.path.join(a, b)", "e": "x = Foo(1)\ny = Foo(2)\nz = x"}
QUERIES = ["Foo(x) return", "Foo Foo x", "os.path.join(a, b)", "class Foo:"]


def _both(make_cfg, docs: dict[str, str]):
    out = []
    for preset in ("lucene9_bm25", "pyserini_bm25"):
        index = instantiate_part(make_cfg(f"retriever={preset}").retriever.sparse)
        index.build(list(docs), list(docs.values()))
        out.append(index)
    return out


def test_the_preset_is_the_exact_port_with_coderag_bench_settings(make_cfg):
    exact, approx = _both(make_cfg, SHORT)
    assert isinstance(exact, Lucene9BM25Index) and (exact.k1, exact.b) == (approx.k1, approx.b) == (1.2, 0.75)
    assert isinstance(exact.tokenizer, WhitespaceTokenizer) and exact.tokenizer.max_token_len == 255
    assert exact.tokenizer("a" * 300 + " b") == approx.tokenizer("a" * 300 + " b")


def test_below_24_tokens_the_exact_port_and_the_approximation_agree(make_cfg):
    exact, approx = _both(make_cfg, SHORT)
    for q in QUERIES:
        got, want = exact.search([q], 5)[0], approx.search([q], 5)[0]
        assert [d for d, _ in got] == [d for d, _ in want], q
        assert all(math.isclose(g, w, rel_tol=1e-5) for (_, g), (_, w) in zip(got, want)), q


def test_above_24_tokens_lengths_are_quantized_as_lucene_stores_them(make_cfg):
    lengths = (30, 37, 100)
    assert [byte4_to_int(int_to_byte4(n)) for n in lengths] != list(lengths)  # Lucene's byte rounds these
    docs = {f"d{n}": " ".join(["foo"] + ["w"] * (n - 1)) for n in lengths}
    exact, approx = _both(make_cfg, docs)
    got, want = dict(exact.search(["foo"], 3)[0]), dict(approx.search(["foo"], 3)[0])
    assert set(got) == set(want) == set(docs)
    assert any(not math.isclose(got[d], want[d], rel_tol=1e-4) for d in docs)
