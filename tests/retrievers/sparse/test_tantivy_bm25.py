"""tantivy: query syntax in user text is never parsed as syntax; saved indexes reopen."""
from __future__ import annotations

import shutil
from pathlib import Path

from retrievers.sparse.tantivy_bm25 import TantivyIndex
from retrievers.sparse.tokenizer import CodeTokenizer

DOCS = {
    "a.py:1-3": "def parse_json(text): return json.loads(text)",
    "b.py:1-3": "class HttpClient: send a request AND wait",
    "c.py:1-3": "body:field title:other  some words here",
}


def build(**kw) -> TantivyIndex:
    ix = TantivyIndex(**kw)
    ix.build(list(DOCS), list(DOCS.values()))
    return ix


def test_query_syntax_is_plain_words():
    ix = build()
    hostile = ['"foo AND (bar OR', "body:field", "title:x~2", "*", "+wait -send", "[a TO z]", "AND",
               "IN [a b]", "json^10", "\\", "'"]
    results = ix.search(hostile, 10)
    assert [c for c, _ in results[1]] == ["c.py:1-3"]  # words body and field, not a field filter
    assert results[3] == []
    assert {c for c, _ in results[4]} == {"b.py:1-3"}
    assert [c for c, _ in results[6]] == ["b.py:1-3"]  # the word "and"


def test_code_pretokenizer_splits_identifiers():
    raw, code = build(), build(pretokenizer=CodeTokenizer())
    assert [c for c, _ in code.search(["HttpClient"], 5)[0]] == ["b.py:1-3"]
    assert [c for c, _ in code.search(["http"], 5)[0]] == ["b.py:1-3"]
    assert raw.search(["http"], 5)[0] == []  # the default analyzer keeps httpclient whole


def test_saved_copy_outlives_the_build_directory(tmp_path):
    ix = build()
    before = ix.search(["json text", "request"], 5)
    ix.save(tmp_path / "t")
    # the build's own index files are gone; the open index's reader may write a lock file back meanwhile
    # (tantivy watches meta.json from a thread), so what is checked is that its files are gone
    built = Path(ix._dir.name)
    shutil.rmtree(built, ignore_errors=True)
    assert not [p for p in built.glob("*") if not p.name.startswith(".tantivy-")]
    fresh = TantivyIndex()
    fresh.load(tmp_path / "t")
    assert fresh.search(["json text", "request"], 5) == before
    assert not (tmp_path / "t" / ".tantivy-writer.lock").exists()
