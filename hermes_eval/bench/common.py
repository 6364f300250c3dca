"""What every benchmark shares: timing helpers and the bench query set and corpus."""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np


@contextmanager
def stopwatch(out: dict, key: str):
    t = time.perf_counter()
    yield
    out[key] = round(time.perf_counter() - t, 4)


def median_ms(samples_ns) -> float:
    return round(float(np.median(np.asarray(samples_ns, dtype=np.float64))) / 1e6, 4)


def percentile_ms(samples_ns, q: float) -> float:
    return round(float(np.percentile(np.asarray(samples_ns, dtype=np.float64), q)) / 1e6, 4)


def default_chunks_and_queries(cache: Path, n_queries: int = 100):
    """The default corpus chunked with python_ast, and docstring queries from it."""
    from hermes_eval.corpus import load_corpus
    from hermes_eval.corpus.masking import mask_corpus
    from hermes_eval.querysets.docstrings import DocstringQueries
    from retrievers.chunkers.base import chunk_files
    from retrievers.chunkers.python_ast import PythonASTChunker

    corpus = load_corpus(["pkg:jinja2", "pkg:click", "pkg:requests"], name="default", cache_dir=cache)
    qs = DocstringQueries(max_queries=n_queries).generate(corpus, "bench")
    masked = mask_corpus(corpus, qs.masks)
    chunks = chunk_files(PythonASTChunker(), [(f.path, f.text, f.language) for f in masked.files])
    return chunks, [q.query for q in qs.queries]
