"""Pipeline.build hands each leg the text it reads: a chunk whose shared header a chunker cut
(retrievers/chunkers/shared_header.py) is embedded without it, while BM25 indexes the whole chunk; real
parts (the packaged MiniLM, exact search, rank_bm25)."""
from __future__ import annotations

import numpy as np

from retrievers.chunkers.base import chunk_files
from retrievers.chunkers.shared_header import SharedHeaderChunker
from retrievers.chunkers.whole import WholeFileChunker
from retrievers.dense.exact import ExactIndex
from retrievers.fusion.rrf import WeightedRRF
from retrievers.leg_text import leg_texts
from retrievers.pipeline import Pipeline
from retrievers.sparse.rank_bm25 import RankBM25Index

LICENCE = "/*\n * Licensed to the Apache Software Foundation (ASF) under one or more contributor licence\n */\n"
BODIES = ["public class Reader {\n    String readFile(String path) { return Files.readString(path); }\n}",
          "public class Socket {\n    void connect(String host, int port, int timeout) { open(host, port); }\n}",
          "public class Hash {\n    byte[] sha256(byte[] data) { return digest(data); }\n}"]
FILES = [(f"a/F{i}.java", LICENCE + body + "\n", "java") for i, body in enumerate(BODIES)]


def test_the_dense_leg_reads_the_cut_text_and_bm25_the_whole(embedder):
    chunks = chunk_files(SharedHeaderChunker(WholeFileChunker(), min_files=2), FILES)
    pipe = Pipeline(legs={"sparse": RankBM25Index(), "dense": ExactIndex()}, fusion=WeightedRRF(dense_weight=0.5),
                    embedder=embedder)
    pipe.build(chunks)
    cut = leg_texts(chunks, "vector")
    assert all(t.startswith("public class") for t in cut)
    want = np.asarray(embedder.embed_documents(cut), dtype=np.float32)
    assert np.allclose(pipe.legs["dense"]._vectors, want, atol=1e-6)
    whole = np.asarray(embedder.embed_documents([c.text for c in chunks]), dtype=np.float32)
    assert not np.allclose(pipe.legs["dense"]._vectors, whole, atol=1e-3)
    # BM25 still holds the licence words: a query made of them finds every file
    hits = pipe.legs["sparse"].search(["Apache Software Foundation licence"], 3)[0]
    assert {cid for cid, _ in hits} == {c.id for c in chunks}
