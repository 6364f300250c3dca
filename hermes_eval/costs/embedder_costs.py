"""Per embedder: document throughput and single-query latency through our wrapper against the raw
library call it wraps, all measured interleaved in one process.

Raw calls: sentence-transformers ``SentenceTransformer.encode`` (minilm); onnxruntime
``InferenceSession.run`` on the same built model with the same tokenization and pooling
(minilm_onnx, minilm_onnx_int8); model2vec ``StaticModel.encode`` (minilm_static). Each is given
the wrapper's batch size and thread count. Rounds rotate the embedder order and alternate which of
raw/wrapper goes first; every query is timed raw and wrapped back to back. Noise is reported as the
spread over rounds (throughput) and the ratio between the two halves of the query sample (latency).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from hermes_eval.costs.common import default_chunks_and_queries, percentile_ms

EMBEDDERS = ("minilm", "minilm_onnx", "minilm_onnx_int8", "minilm_static")
N_TEXTS = 128  # documents per throughput measurement
N_QUERIES = 60  # single-query latency samples per round
ROUNDS = 3
WARMUP_QUERIES = 3


def make_embedder(name: str, cache: Path):
    """The embedder exactly as its config builds it, without a document cache (its model built first)."""
    from hermes_eval.config.compose import compose
    from hermes_eval.config.parts import instantiate_part

    cfg = compose([f"embedder={name}", f"paths.cache={cache}", "embedder.cache_dir=null"])
    node = dict(cfg.embedder)
    if str(node["_target_"]).endswith("OnnxEmbedder"):
        node["keep_document_session"] = True  # time encoding, not opening a session per call
    emb = instantiate_part(node)
    if hasattr(emb, "ready"):
        emb.ready()
    else:
        emb.st  # noqa: B018 - load
    return emb


def raw_calls(name: str, emb) -> tuple[Callable[[list[str]], object], Callable[[str], object]]:
    """(documents, one query) through the library alone, with the wrapper's settings."""
    if name == "minilm":
        import torch

        model = emb.st

        def docs(texts):
            return model.encode(texts, batch_size=emb.batch_size, normalize_embeddings=True, show_progress_bar=False)

        def query(text):
            before = torch.get_num_threads()
            torch.set_num_threads(emb.query_threads or before)
            try:
                return model.encode([text], normalize_embeddings=True, show_progress_bar=False)
            finally:
                torch.set_num_threads(before)
        return docs, query
    if name == "minilm_static":
        static = emb.static

        def docs(texts):
            return static.encode(texts, max_length=emb.max_seq_length, batch_size=emb.batch_size,
                                 use_multiprocessing=False)
        return docs, lambda text: static.encode([text], max_length=emb.max_seq_length, use_multiprocessing=False)
    from retrievers.embedders.onnx_runtime import encode_batch, load_tokenizer, session

    tok = load_tokenizer(emb.built.path, emb.max_seq_length)
    doc_sess = session(emb.built.path, emb.document_threads)
    query_sess = session(emb.built.path, emb.query_threads)

    def docs(texts):
        out = [encode_batch(doc_sess, tok, texts[i:i + emb.batch_size]) for i in range(0, len(texts), emb.batch_size)]
        v = np.concatenate(out)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def query(text):
        v = encode_batch(query_sess, tok, [text])
        return v / np.linalg.norm(v, axis=1, keepdims=True)
    return docs, query


def _timed(fn: Callable[[], object]) -> int:
    t = time.perf_counter_ns()
    fn()
    return time.perf_counter_ns() - t


def run(cache: Path) -> dict:
    chunks, queries = default_chunks_and_queries(cache)
    texts = [c.text for c in chunks[:N_TEXTS]]
    qs = (queries * (N_QUERIES // max(len(queries), 1) + 1))[:N_QUERIES]
    arms = {}
    for name in EMBEDDERS:
        emb = make_embedder(name, cache)
        raw_docs, raw_query = raw_calls(name, emb)
        raw_docs(texts[:8]), emb.embed_documents(texts[:8])  # warm both paths
        arms[name] = {"emb": emb, "raw_docs": raw_docs, "raw_query": raw_query,
                      "docs_s": {"raw": [], "ours": []}, "query_ns": {"raw": [], "ours": []},
                      "model_bytes": emb.stats.get("model_bytes")}
    for r in range(ROUNDS):
        order = EMBEDDERS[r % len(EMBEDDERS):] + EMBEDDERS[:r % len(EMBEDDERS)]
        for name in order:
            a, emb = arms[name], arms[name]["emb"]
            pair = [("raw", lambda: a["raw_docs"](texts)), ("ours", lambda: emb.embed_documents(texts))]
            for side, fn in (pair if r % 2 == 0 else pair[::-1]):
                a["docs_s"][side].append(_timed(fn) / 1e9)
            for i, q in enumerate(qs):
                sides = [("raw", lambda q=q: a["raw_query"](q)), ("ours", lambda q=q: emb.embed_queries([q]))]
                for side, fn in (sides if (i + r) % 2 == 0 else sides[::-1]):
                    ns = _timed(fn)
                    if i >= WARMUP_QUERIES:
                        a["query_ns"][side].append(ns)
    return {"texts": len(texts), "queries_per_round": len(qs) - WARMUP_QUERIES, "rounds": ROUNDS,
            "rows": [_summary(name, arms[name], len(texts)) for name in EMBEDDERS]}


def _summary(name: str, a: dict, n_texts: int) -> dict:
    tput = {side: [n_texts / s for s in secs] for side, secs in a["docs_s"].items()}
    q = {side: np.asarray(ns, dtype=np.float64) for side, ns in a["query_ns"].items()}
    half = len(q["ours"]) // 2
    halves = [float(np.median(q["ours"][:half]) / np.median(q["raw"][:half])),
              float(np.median(q["ours"][half:]) / np.median(q["raw"][half:]))]
    return {"embedder": name, "model_mb": round((a["model_bytes"] or 0) / 1e6, 1),
            "raw_texts_per_s": round(float(np.median(tput["raw"])), 1),
            "ours_texts_per_s": round(float(np.median(tput["ours"])), 1),
            "texts_per_s_spread": [round(min(tput["ours"]), 1), round(max(tput["ours"]), 1)],
            "throughput_ratio": round(float(np.median(tput["ours"]) / np.median(tput["raw"])), 3),
            "raw_query_p50_ms": percentile_ms(q["raw"], 50), "raw_query_p95_ms": percentile_ms(q["raw"], 95),
            "ours_query_p50_ms": percentile_ms(q["ours"], 50), "ours_query_p95_ms": percentile_ms(q["ours"], 95),
            "query_p50_ratio": round(float(np.median(q["ours"]) / np.median(q["raw"])), 3),
            "query_ratio_halves": [round(h, 3) for h in halves]}
