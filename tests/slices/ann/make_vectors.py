"""Writes vectors.npz: MiniLM vectors of >2,000 real chunks and 100 code queries, for the ANN recall tests.

The chunks: the installed jinja2, click and requests source in 20-line windows (overlap 5), sorted by id;
the queries: the first two lines of a seeded sample of them. Embedded with the packaged all-MiniLM-L6-v2,
stored as float16 (the tests compare ANN against exact search on these same vectors, so where and on which
CPU they were computed does not matter). Run from the checkout: ``.venv/bin/python tests/slices/ann/make_vectors.py``.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "vectors.npz"


def main() -> None:
    from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder
    from tests.retrievers.conftest import chunks_of

    with tempfile.TemporaryDirectory() as tmp:
        chunks = chunks_of(Path(tmp))
        emb = SentenceTransformerEmbedder(cache_dir=tmp)
        texts = [c.text for c in chunks]
        picks = sorted(np.random.default_rng(7).choice(len(texts), size=100, replace=False))
        queries = [" ".join(texts[i].splitlines()[:2]) for i in picks]
        np.savez_compressed(OUT, ids=np.array([c.id for c in chunks]),
                            vectors=emb.embed_documents(texts).astype(np.float16),
                            queries=emb.embed_queries(queries).astype(np.float16))
    print(f"{OUT}: {len(chunks)} chunks, {len(queries)} queries")


if __name__ == "__main__":
    main()
