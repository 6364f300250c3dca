"""Span grades: optional, default 1, omitted when written, so older query sets read the same."""
from __future__ import annotations

from hermes_eval.core import Query, Span
from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels, file_qrels
from hermes_eval.querysets.store import parse_query
from retrievers.chunk import Chunk


def test_grade_defaults_to_one_and_is_written_only_when_not_one():
    assert Span("a.py", 1, 2) == Span("a.py", 1, 2, 1)
    assert Span("a.py", 1, 2).to_dict() == {"path": "a.py", "start": 1, "end": 2}
    assert Span("a.py", 1, 2, 3).to_dict() == {"path": "a.py", "start": 1, "end": 2, "grade": 3}
    q = parse_query({"qid": "q", "query": "x", "gold": [Span("a.py", 1, 2, 3).to_dict(),
                                                      {"path": "b.py", "start": 4, "end": 4}]}, "test")
    assert [g.grade for g in q.gold] == [3, 1]


def test_qrels_carry_the_highest_grade_at_chunk_and_file_level():
    chunks = [Chunk("a.py", 1, 5, "x\n" * 5), Chunk("b.py", 1, 3, "y\n" * 3)]
    q = Query("q", "find", gold=(Span("a.py", 1, 2, 1), Span("a.py", 4, 5, 3), Span("b.py", 1, 1)))
    assert chunk_qrels([q], ChunkLookup(chunks)) == {"q": {"a.py:1-5": 3, "b.py:1-3": 1}}
    assert file_qrels([q]) == {"q": {"a.py": 3, "b.py": 1}}
