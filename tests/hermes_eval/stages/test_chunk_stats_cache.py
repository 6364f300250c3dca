"""A chunk set's token counts are computed once and read from the cache by the next run over it."""
from __future__ import annotations

from hermes_eval.cache.content import Cache
from hermes_eval.stages.chain import _chunk_stats
from retrievers.chunk import Chunk
from retrievers.chunkers.tokens import count_tokens


def tokens(chunks: list[Chunk]) -> int:
    """The chunks' token count by the tokenizer, text by text (the stats count line by line)."""
    return sum(count_tokens(c.text) for c in chunks)


def _chunks(extra: str = "") -> list[Chunk]:
    return [Chunk("a.py", 1, 2, "def parse(x):\n    return x\n", "python"),
            Chunk("b.py", 1, 1, "VALUE = 42" + extra, "python")]


def test_second_count_of_the_same_chunks_comes_from_the_cache_and_equals_the_first(tmp_path):
    first = Cache(tmp_path)
    counted = _chunk_stats(_chunks(), first)
    second = Cache(tmp_path)
    assert _chunk_stats(_chunks(), second) == counted
    assert [e["source"] for e in first.events] == ["computed"] and [e["source"] for e in second.events] == ["cache"]
    assert counted["tokens_total"] == tokens(_chunks()) and counted["count"] == 2
    other = Cache(tmp_path)
    changed = _chunk_stats(_chunks(" + 1"), other)
    assert [e["source"] for e in other.events] == ["computed"]
    assert changed["tokens_total"] == tokens(_chunks(" + 1")) == tokens(_chunks()) + count_tokens(" + 1")
