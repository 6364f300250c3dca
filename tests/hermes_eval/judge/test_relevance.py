"""Relevance from spans: the bisect lookup against brute force, and line coverage."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels, file_ranking, line_coverage
from hermes_eval.core import Query, Span
from retrievers.chunk import Chunk


@st.composite
def chunkings(draw):
    chunks = []
    for path in ("a.py", "b.py"):
        for _ in range(draw(st.integers(0, 12))):
            s = draw(st.integers(1, 200))
            chunks.append(Chunk(path, s, s + draw(st.integers(0, 60)), "x"))
    return chunks


@settings(max_examples=200, deadline=None)
@given(chunkings(), st.integers(1, 260), st.integers(0, 40))
def test_overlapping_matches_brute_force(chunks, start, length):
    span = Span("a.py", start, start + length)
    lookup = ChunkLookup(chunks)
    want = {c.id for c in chunks if c.path == "a.py" and c.start <= span.end and span.start <= c.end}
    assert {c.id for c in lookup.overlapping(span)} == want


def test_exclude_removes_judgments_and_coverage_counts_lines():
    chunks = [Chunk("a.py", 1, 10, "x"), Chunk("a.py", 11, 20, "x"), Chunk("b.py", 1, 5, "x")]
    lookup = ChunkLookup(chunks)
    q = Query("q", "text", gold=(Span("a.py", 8, 12),), exclude=(Span("a.py", 11, 20),))
    assert chunk_qrels([q], lookup) == {"q": {"a.py:1-10": 1}}
    assert line_coverage(q, ["a.py:1-10"], lookup, k=1) == 3 / 5
    assert line_coverage(q, ["b.py:1-5", "a.py:11-20"], lookup, k=2) == 2 / 5
    assert file_ranking(["a.py:11-20", "b.py:1-5", "a.py:1-10"]) == ["a.py", "b.py"]


@given(chunkings(), st.lists(st.tuples(st.sampled_from(["a.py", "b.py", "c.py"]), st.integers(1, 250),
                                       st.integers(0, 40)), min_size=1, max_size=4), st.integers(1, 12))
def test_line_coverage_is_the_share_of_gold_lines_the_top_k_chunks_hold(chunks, golds, k):
    """Parity with the definition: every line of every top-k chunk collected, intersected with the gold."""
    lookup = ChunkLookup({c.id: c for c in chunks}.values())
    hits = list(lookup.by_id)
    q = Query("q", "x", tuple(Span(p, s, s + n) for p, s, n in golds))
    gold = {(g.path, n) for g in q.gold for n in range(g.start, g.end + 1)}
    held = {(c.path, n) for c in (lookup.by_id[i] for i in hits[:k]) for n in range(c.start, c.end + 1)}
    assert line_coverage(q, hits, lookup, k) == len(gold & held) / len(gold)
