"""The chunks handed to the index never hold a masked docstring: checked on the chunks themselves."""
from __future__ import annotations

import re

import pytest

from hermes_eval.cache.content import Cache
from hermes_eval.config.settings import settings_from
from hermes_eval.stages.prepare import prepare


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.mark.parametrize("chunker", ["python_ast", "lines", "cast"])
def test_no_chunk_holds_a_masked_docstring(make_cfg, chunker):
    s = settings_from(make_cfg(f"chunker={chunker}", "retriever=bm25"))
    p = prepare(s, Cache(s.paths.cache))
    original = {f.path: f.text.split("\n") for f in p.corpus.files}
    chunks = [(c, _norm(c.text)) for c in p.chunks]
    masked = [(q, m) for q in p.queryset.queries for m in q.meta.get("mask", [])]
    assert len(masked) == len(p.queryset.queries) >= 30
    for q, m in masked:
        docstring = _norm("\n".join(original[m["path"]][m["start"] - 1:m["end"]]))
        assert len(docstring) >= len(_norm(q.query))
        assert not any(docstring in text for _, text in chunks), (chunker, q.qid)
        # nor the query's own words inside the chunks of its gold definition
        gold = q.gold[0]
        assert not any(_norm(q.query) in text for c, text in chunks
                       if c.path == gold.path and c.start <= gold.end and gold.start <= c.end), (chunker, q.qid)
