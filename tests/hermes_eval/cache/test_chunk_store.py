"""The per-file chunk store: a snapshot set's files are chunked once, ever; rows keep no copy of the
code unless a chunk's text is not its lines; a damaged row is dropped and the file chunked again."""
from __future__ import annotations

import sqlite3
from dataclasses import replace

from hermes_eval.cache.chunk_store import ChunkStore, from_rows, to_rows
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.stages.snapshots import chunk_by_content
from retrievers.chunkers.base import Chunker
from retrievers.chunkers.functions import FunctionChunker
from retrievers.chunkers.whole import WholeFileChunker

A = "import os\n\n\ndef one():\n    return 1\n\n\nclass K:\n    def two(self):\n        return 2\n"
B = A.replace("return 2", "return 22")


class Counting(Chunker):
    """A real chunker that counts the files it is asked to chunk."""

    def __init__(self, inner):
        self.inner, self.calls = inner, 0
        self.selective = inner.selective

    def chunk(self, path, text, language):
        self.calls += 1
        return self.inner.chunk(path, text, language)


def _corpus() -> Corpus:
    return Corpus("c", tuple(CorpusFile(f"r@{s}/pkg/m.py", f"r@{s}", "python", t)
                             for s, t in (("0001", A), ("0002", B), ("0003", A))))


def test_a_second_run_reads_every_file_from_the_store_and_gets_the_same_chunks(tmp_path):
    scopes = ["r@0001/", "r@0002/", "r@0003/"]
    store = ChunkStore(tmp_path / "files.sqlite")
    first = Counting(FunctionChunker())
    chunks, reuse = chunk_by_content(first, _corpus(), scopes, store, "functions-v1")
    assert first.calls == 2  # A and B; the third snapshot's A is the first one's
    second = Counting(FunctionChunker())
    again, _ = chunk_by_content(second, _corpus(), scopes, ChunkStore(tmp_path / "files.sqlite"), "functions-v1")
    assert second.calls == 0 and [(c.id, c.text, c.symbol) for c in again] == [(c.id, c.text, c.symbol) for c in chunks]
    assert reuse["r@0003/"]["files_reused"] == 1 and {c.symbol for c in chunks} == {"one", "K/two"}
    other = Counting(WholeFileChunker())
    chunk_by_content(other, _corpus(), scopes, ChunkStore(tmp_path / "files.sqlite"), "whole-v1")
    assert other.calls == 2  # another chunker key: its own rows


def test_rows_hold_text_only_when_it_is_not_the_lines_and_damage_is_rechunked(tmp_path):
    chunks = FunctionChunker().chunk("m.py", A, "python")
    rows = to_rows(chunks, A)
    assert all(r[5] is None for r in rows)  # the code is not copied into the store
    odd = [replace(chunks[0], text="not the lines")]
    assert to_rows(odd, A)[0][5] == "not the lines" and from_rows(to_rows(odd, A), "m.py", A)[0].text == "not the lines"
    store = ChunkStore(tmp_path / "files.sqlite")
    scopes = ["r@0001/", "r@0002/", "r@0003/"]
    chunk_by_content(FunctionChunker(), _corpus(), scopes, store, "k")
    db = sqlite3.connect(str(tmp_path / "files.sqlite"))
    db.execute("UPDATE chunks SET data = X'00' WHERE rowid = 1")
    db.commit()
    counting = Counting(FunctionChunker())
    fresh = ChunkStore(tmp_path / "files.sqlite")
    chunk_by_content(counting, _corpus(), scopes, fresh, "k")
    assert counting.calls == 1 and fresh.corrupt_rows == 1
