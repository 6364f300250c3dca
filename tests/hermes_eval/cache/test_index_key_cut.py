"""An index over chunks whose shared header a chunker cut is not the index over the same chunks uncut: the
cache key of a chunk set holds the cut (retrievers/leg_text.py), and only when there is one."""
from __future__ import annotations

from hermes_eval.cache.indexes import chunk_set_hash
from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.shared_header import SharedHeaderChunker
from retrievers.chunkers.whole import WholeFileChunker

FILES = [(f"a/F{i}.go", f"// Licensed under the Apache License\n\npackage a\n\nfunc F{i}() {{}}\n", "go") for i in range(3)]


def test_the_cut_changes_the_chunk_set_key():
    plain = chunk_files(WholeFileChunker(), FILES)
    cut = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=2), FILES)
    kept = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=3), FILES)  # 3 files: not more than 3
    assert [c.text for c in cut] == [c.text for c in plain]
    assert chunk_set_hash(cut) != chunk_set_hash(plain)
    assert chunk_set_hash(kept) == chunk_set_hash(plain)
