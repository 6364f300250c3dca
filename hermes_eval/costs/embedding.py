"""Embedding throughput through the embedder wrapper vs raw SentenceTransformer.encode."""
from __future__ import annotations

import time
from pathlib import Path

from hermes_eval.costs.common import default_chunks_and_queries
from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder

N_TEXTS = 512
BATCH = 64


def run(cache: Path) -> dict:
    chunks, _ = default_chunks_and_queries(cache)
    texts = [c.text for c in chunks[:N_TEXTS]]
    ours = SentenceTransformerEmbedder(batch_size=BATCH, cache_dir=None)
    model = ours.st
    model.encode(texts[:BATCH], batch_size=BATCH)  # warm both paths
    timings = {"raw": [], "pipeline": []}
    for _ in range(2):  # alternate to share machine state
        t = time.perf_counter()
        model.encode(texts, batch_size=BATCH, normalize_embeddings=True, show_progress_bar=False)
        timings["raw"].append(time.perf_counter() - t)
        t = time.perf_counter()
        ours.embed_documents(texts)
        timings["pipeline"].append(time.perf_counter() - t)
    raw, pipe = min(timings["raw"]), min(timings["pipeline"])
    return {"texts": len(texts), "batch_size": BATCH, "raw_texts_per_s": round(len(texts) / raw, 1),
            "pipeline_texts_per_s": round(len(texts) / pipe, 1), "ratio": round(raw / pipe, 3),
            "target": ">= 0.9", "passed": raw / pipe >= 0.9}
