"""A small in-memory pipeline stand-in (chunks by id, a deterministic bag-of-words embedder), a tiny
cross-encoder built here, and a chat server on loopback: what every reranker needs to be tested."""
from __future__ import annotations

import inspect
import re
import zlib
from dataclasses import dataclass, field

import numpy as np
import pytest
from loopback import ChatServer, serving

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


WORDS = "open a file and read bytes parse json config from string value network socket connect " \
        "timeout error handling render html template".split()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """A 1-layer, 32-wide BERT sequence classifier with one output, saved to a folder."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-cross-encoder")
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(WORDS))]) + "\n")
    # transformers 5 takes the vocabulary as `vocab`, 4.x as `vocab_file`
    arg = "vocab" if "vocab" in inspect.signature(BertTokenizerFast.__init__).parameters else "vocab_file"
    tok = BertTokenizerFast(**{arg: str(vocab)}, do_lower_case=True)
    assert tok("json parse")["input_ids"][1:3] != [tok.unk_token_id] * 2
    torch.manual_seed(0)
    # wide initial weights so random logits differ clearly (the default 0.02 makes near-ties)
    config = BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=37, max_position_embeddings=64, num_labels=1, initializer_range=0.5)
    model = BertForSequenceClassification(config).eval()
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


@pytest.fixture
def chat():
    server = ChatServer(slow_seconds=1.0, wide_seconds=0.2)
    with serving(server.handler()) as url:
        server.url = url + "/v1"
        yield server
