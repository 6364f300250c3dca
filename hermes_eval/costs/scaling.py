"""Scaling: build seconds, query p50/p95, bytes and peak memory at ~1k/4k/16k/64k chunks of real
code (sympy's source in 10-line windows). Dense backends get seeded random unit vectors (labelled:
this part measures cost, not quality). Each (backend, size) runs in its own process so peak
memory is its own."""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from hermes_eval.record.manifest import peak_rss_mb

SIZES = (1_000, 4_000, 16_000, 64_000)
BACKENDS = {  # name -> retriever config whose single leg is measured
    "bm25s": "bm25s", "fts5": "fts5_porter", "rank_bm25": "rank_bm25_okapi",
    "faiss_flat": "faiss_flat", "faiss_hnsw": "faiss_hnsw", "usearch": "usearch_f32"}
CORPUS = "pypi:sympy==1.13.3"
DIM = 384
N_QUERIES = 50


def prepare(cache: Path) -> Path:
    """Chunks sampled per size and the query texts, written once to the bench cache."""
    from hermes_eval.config.settings import CorpusSettings
    from hermes_eval.querysets.generators.docstrings import DocstringQueries
    from hermes_eval.stages.prepare import open_corpus
    from retrievers.chunkers.base import chunk_files
    from retrievers.chunkers.lines import LineChunker

    out = cache / "bench" / "scaling.pkl"
    if out.exists():
        return out
    corpus = open_corpus(CorpusSettings(name="sympy", sources=(CORPUS,)), cache)
    chunks = chunk_files(LineChunker(size=10, overlap=0), [(f.path, f.text, f.language) for f in corpus.files])
    rng = np.random.default_rng(0)
    order = rng.permutation(len(chunks))
    samples = {n: [chunks[i] for i in sorted(order[:n])] for n in SIZES if n <= len(chunks)}
    queries = [q.query for q in DocstringQueries(max_queries=N_QUERIES).generate(corpus, "s").queries]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pickle.dumps({"samples": samples, "queries": queries, "total_chunks": len(chunks)}))
    return out


def worker(data_path: str, backend: str, size: int) -> dict:
    """Runs in a child process: build, save, query; reports its own peak RSS."""
    from hermes_eval.config.compose import compose
    from hermes_eval.config.parts import instantiate_part

    data = pickle.loads(Path(data_path).read_bytes())
    chunks = data["samples"][size]
    cfg = compose([f"retriever={BACKENDS[backend]}"]).retriever
    leg = cfg.sparse or cfg.dense
    index = instantiate_part(leg)
    rss_before = peak_rss_mb()
    rng = np.random.default_rng(1)
    if index.input == "vector":
        docs = rng.standard_normal((len(chunks), DIM)).astype(np.float32)
        docs /= np.linalg.norm(docs, axis=1, keepdims=True)
        queries = docs[rng.integers(0, len(chunks), N_QUERIES)] + 0.1 * rng.standard_normal((N_QUERIES, DIM)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        queries = list(queries)
    else:
        docs = [c.text for c in chunks]
        queries = data["queries"]
    t = time.perf_counter()
    index.build([c.id for c in chunks], docs)
    build_s = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        index.save(Path(tmp) / "ix")
        nbytes = sum(p.stat().st_size for p in (Path(tmp) / "ix").rglob("*") if p.is_file())
    times = []
    for q in queries[:5]:
        index.search(np.atleast_2d(q) if index.input == "vector" else [q], 10)
    for q in queries:
        t = time.perf_counter_ns()
        index.search(np.atleast_2d(q) if index.input == "vector" else [q], 10)
        times.append(time.perf_counter_ns() - t)
    peak = peak_rss_mb()
    return {"backend": backend, "chunks": size, "vectors": "random (labelled)" if index.input == "vector" else "-",
            "build_s": round(build_s, 3), "query_p50_ms": round(float(np.percentile(times, 50)) / 1e6, 4),
            "query_p95_ms": round(float(np.percentile(times, 95)) / 1e6, 4), "bytes": nbytes,
            "peak_rss_mb": round(peak, 1), "rss_growth_mb": round(peak - rss_before, 1)}


def growth_exponent(rows: list[dict]) -> float | None:
    """Slope of log(query p50) against log(chunks): 0 is constant, 1 linear."""
    pts = [(r["chunks"], r["query_p50_ms"]) for r in rows if r.get("query_p50_ms", 0) > 0]
    if len(pts) < 2:
        return None
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return round(float(np.polyfit(x, y, 1)[0]), 3)


def run(cache: Path) -> dict:
    data = prepare(cache)
    rows, exponents = [], {}
    for backend in BACKENDS:
        mine = []
        for size in SIZES:
            proc = subprocess.run([sys.executable, "-m", "hermes_eval.costs.scaling", str(data), backend,
                                   str(size)], capture_output=True, text=True, timeout=1200)
            if proc.returncode != 0:
                mine.append({"backend": backend, "chunks": size, "error": proc.stderr.strip()[-300:]})
                continue
            mine.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        exponents[backend] = growth_exponent(mine)
        rows.extend(mine)
    return {"corpus": CORPUS, "rows": rows, "query_time_growth_exponent": exponents}


if __name__ == "__main__":  # the worker run() starts: its stdout is the reply, so this stays a print
    print(json.dumps(worker(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
