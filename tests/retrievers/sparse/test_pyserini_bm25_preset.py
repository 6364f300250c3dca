"""The pyserini_bm25 preset is CodeRAG-Bench's BM25: Lucene's formula with k1 1.2, b 0.75 over
whitespace tokens with case kept, a repeated query term counted each time (Anserini's bag of
words). Checked against Lucene's BM25 written out here from its documentation, on real code."""
from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import jinja2

from hermes_eval.config.parts import instantiate_part
from retrievers.chunkers.centred_windows import CentredWindowChunker


def test_tokens_are_lucene_whitespace_tokens(make_cfg):
    index = instantiate_part(make_cfg("retriever=pyserini_bm25").retriever.sparse)
    assert (index.method, index.k1, index.b) == ("lucene", 1.2, 0.75)
    assert index.tokenizer("def Foo(x):\n\treturn  x.BAR") == ["def", "Foo(x):", "return", "x.BAR"]
    assert index.tokenizer("a" * 300 + " b") == ["a" * 255, "a" * 45, "b"]  # maxTokenLen 255


def lucene_bm25(docs: dict[str, list[str]], query: list[str], k1: float = 1.2, b: float = 0.75
                ) -> list[tuple[str, float]]:
    """Lucene's BM25Similarity with exact lengths: sum over query terms (repeats included) of
    log(1 + (N - df + 0.5) / (df + 0.5)) * tf / (tf + k1 * (1 - b + b * dl / avgdl))."""
    n = len(docs)
    avgdl = sum(len(t) for t in docs.values()) / n
    tfs = {d: Counter(t) for d, t in docs.items()}
    df = Counter(term for c in tfs.values() for term in c)
    scores: dict[str, float] = {}
    for d, tf in tfs.items():
        s = 0.0
        for term in query:
            if tf[term]:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                s += idf * tf[term] / (tf[term] + k1 * (1 - b + b * len(docs[d]) / avgdl))
        if s > 0:
            scores[d] = s
    return sorted(scores.items(), key=lambda x: (-x[1], x[0]))


def test_rankings_match_lucene_bm25_on_real_windows(make_cfg):
    index = instantiate_part(make_cfg("retriever=pyserini_bm25").retriever.sparse)
    chunks = []
    for path in sorted(Path(jinja2.__file__).parent.glob("*.py"))[:8]:
        chunks += CentredWindowChunker().chunk(path.name, path.read_text(), "python")
    docs = {c.id: index.tokenizer(c.text) for c in chunks}
    index.build(list(docs), [c.text for c in chunks])
    # prompts: long stretches of code, as RepoEval's, with many repeated terms
    queries = ["\n".join(c.text for c in chunks[i:i + 3]) for i in range(0, len(chunks), max(1, len(chunks) // 12))]
    for q in queries:
        want = lucene_bm25(docs, index.tokenizer(q))[:10]
        got = index.search([q], 10)[0]
        assert [d for d, _ in got] == [d for d, _ in want] or _near_tie(got, want), q[:80]
        assert math.isclose(got[0][1], want[0][1], rel_tol=1e-5)  # the score itself, not only the order


def _near_tie(got, want) -> bool:
    """Orders differ only where two scores agree to float32 precision."""
    ws = dict(want)
    return all(math.isclose(s, ws.get(d, -1), rel_tol=1e-5) for d, s in got)
