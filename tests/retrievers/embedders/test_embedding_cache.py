"""The embedding cache checks every row and the file itself: a corrupted vector or a damaged file is
detected, said in the log and the embedder's stats (so the run record), and rebuilt."""
from __future__ import annotations

import logging
import sqlite3

import numpy as np
import pytest

from retrievers.embedders.model_source import resolve_model
from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder

TEXTS = ["def parse(url):\n    return urlsplit(url)", "class Session:\n    pass", "import json",
         "raise ValueError('bad header')", "for key in headers: print(key)"]


@pytest.fixture(scope="module")
def model():
    return SentenceTransformerEmbedder().st  # one MiniLM load for the module


def _embedder(model, cache_dir) -> SentenceTransformerEmbedder:
    """A fresh embedder (it opens the cache anew) sharing the loaded model: what ``_load`` sets."""
    emb = SentenceTransformerEmbedder(cache_dir=str(cache_dir))
    emb._model, emb._path = model, resolve_model(emb.model)  # noqa: SLF001
    return emb


def test_a_corrupted_row_is_detected_logged_and_recomputed(model, tmp_path, caplog):
    first = _embedder(model, tmp_path)
    want = first.embed_documents(TEXTS)
    assert first.stats["computed"] == 5
    db = sqlite3.connect(tmp_path / "embeddings.sqlite")
    blob = bytearray(db.execute("SELECT vec FROM vectors LIMIT 1 OFFSET 2").fetchone()[0])
    blob[:4] = b"\x00\x00\x80\x7f"  # one float becomes +inf: a silent bit-rot the old cache served
    db.execute("UPDATE vectors SET vec=? WHERE rowid=(SELECT rowid FROM vectors LIMIT 1 OFFSET 2)", (bytes(blob),))
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING):
        again = _embedder(model, tmp_path)
        got = again.embed_documents(TEXTS)
    assert again.stats["corrupt_rows"] == 1 and again.stats["computed"] == 1 and again.stats["cached"] == 4
    assert "failed their checksum" in caplog.text
    np.testing.assert_allclose(got, want, atol=1e-6)
    clean = _embedder(model, tmp_path)  # the rebuilt row is served from the cache afterwards
    clean.embed_documents(TEXTS)
    assert clean.stats["cached"] == 5 and clean.stats["corrupt_rows"] == 0


def test_a_damaged_file_is_moved_aside_and_the_cache_rebuilt(model, tmp_path, caplog):
    want = _embedder(model, tmp_path).embed_documents(TEXTS)
    path = tmp_path / "embeddings.sqlite"
    for extra in ("-wal", "-shm"):
        (tmp_path / f"embeddings.sqlite{extra}").unlink(missing_ok=True)
    data = bytearray(path.read_bytes())
    data[:100] = b"garbage!" * 12 + b"junk"  # the SQLite header is gone
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        again = _embedder(model, tmp_path)
        got = again.embed_documents(TEXTS)
    moved = again.stats["corrupt_file_moved_to"]
    assert moved and "corrupt" in moved and again.stats["computed"] == 5
    assert "is corrupt" in caplog.text and "rebuilding" in caplog.text
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert _embedder(model, tmp_path).embed_documents(TEXTS).shape == (5, 384)
