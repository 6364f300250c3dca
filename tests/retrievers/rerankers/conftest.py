"""A small in-memory pipeline stand-in: chunks by id and a deterministic bag-of-words embedder."""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

import numpy as np
import pytest

from retrievers.chunk import Chunk


class WordEmbedder:
    """Unit bag-of-words vectors over hashed buckets; counts its calls."""

    def __init__(self, dim: int = 64):
        self.dim = dim
        self.calls = {"queries": 0, "documents": 0}

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, np.float32)
        for w in re.findall(r"[a-z]+", text.lower()):
            v[zlib.crc32(w.encode()) % self.dim] += 1.0
        n = np.linalg.norm(v)
        return v / n if n else v

    def embed_queries(self, queries):
        self.calls["queries"] += len(queries)
        return np.stack([self._vec(q) for q in queries])

    def embed_documents(self, docs):
        self.calls["documents"] += len(docs)
        return np.stack([self._vec(d) for d in docs])


@dataclass
class FakePipeline:
    texts: dict[str, str]
    embedder: WordEmbedder = field(default_factory=WordEmbedder)

    def chunk(self, cid: str) -> Chunk:
        path, lines = cid.rsplit(":", 1)
        start, end = (int(x) for x in lines.split("-"))
        return Chunk(path, start, end, self.texts[cid])


@pytest.fixture
def docs() -> dict[str, str]:
    """Six chunks; fused order is a, b, c, d, e, f."""
    return {
        "a.py:1-5": "open a file and read bytes",
        "b.py:1-5": "parse json config from a string",
        "c.py:1-5": "parse json config from a string value",
        "d.py:1-5": "network socket connect timeout",
        "e.py:1-5": "json parse error handling",
        "f.py:1-5": "render html template",
    }


@pytest.fixture
def fused(docs) -> list[tuple[str, float]]:
    ids = list(docs)
    return [(cid, 1.0 - 0.1 * i) for i, cid in enumerate(ids)]


@pytest.fixture
def pipeline(docs) -> FakePipeline:
    return FakePipeline(docs)
