"""The fixed input every part of a kind is run on, and the probes that run it.

A probe's discrete output goes into the part's key (:mod:`retrievers.identity.key`): a refactor that
leaves it equal keeps the key; a change it shows makes a new one. The input is files of every language
the records run (``probe_files/``: Python, Go, Rust, JavaScript, TypeScript, markdown, and Java and C in
``probe_files/later/``), the windows a line chunker makes of them, fixed queries (one of them longer than
1,024 words, past any query cut) and seeded vectors. Every chunker, index leg and embedder reads all of
them; a query-set generator reads Java and C only when it lists them (:func:`later_probe_files`), so a
stored query set's generator check is what it was.

An index's probe output is ranked ids (:func:`ranked_ids`), never its scores: scores differ in their low
bits by CPU. Scores closer than :data:`TIE_RTOL` form one tie group, held as a set, so the order the SIMD
path gives near-equal scores cannot change a key; the golden check compares the scores themselves within
a tolerance.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

FILES = Path(__file__).resolve().parent / "probe_files"
LANGUAGES = {".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".ts": "typescript",
             ".md": "markdown"}
LATER = FILES / "later"
LATER_LANGUAGES = {".java": "java", ".c": "c"}
QUERIES = ("area of a circle radius", "merge overlapping ranges", "push item on a full queue",
           "least recently used cache get", "how do I install shapes")
LONG_QUERY_WORDS = 1500  # a query past the 1,024 words a query is cut to (retrievers.sparse first_words)
TIE_RTOL = 1e-5  # scores closer than this (relative to the larger, at least 1) are one tie group
WINDOW = 8  # lines per probe document
VECTOR_DIM = 16
N_VECTORS = 64
K = 5


@lru_cache(maxsize=1)
def first_probe_files() -> tuple[tuple[str, str, str], ...]:
    """(path, text, language) of the probe files before Java and C, sorted by path (what a query-set
    generator and the judge's own keys read)."""
    return tuple((p.name, p.read_text(encoding="utf-8"), LANGUAGES[p.suffix])
                 for p in sorted(FILES.iterdir()) if p.suffix in LANGUAGES)


@lru_cache(maxsize=1)
def probe_files() -> tuple[tuple[str, str, str], ...]:
    """(path, text, language) of every probe file, Java and C included: what parts are probed on."""
    return first_probe_files() + later_probe_files(frozenset(LATER_LANGUAGES.values()))


@lru_cache(maxsize=None)
def later_probe_files(languages: frozenset[str]) -> tuple[tuple[str, str, str], ...]:
    """(path, text, language) of the later languages' probe files in ``languages``, sorted by path (none
    for a part that opts in to no later language)."""
    return tuple((f"later/{p.name}", p.read_text(encoding="utf-8"), LATER_LANGUAGES[p.suffix])
                 for p in sorted(LATER.iterdir()) if LATER_LANGUAGES.get(p.suffix) in languages)


@lru_cache(maxsize=1)
def probe_documents() -> tuple[tuple[str, str], ...]:
    """(id, text) windows of the probe files: what an index is built from."""
    out = []
    for path, text, _ in probe_files():
        lines = text.split("\n")
        for start in range(0, len(lines), WINDOW):
            body = "\n".join(lines[start:start + WINDOW])
            if body.strip():
                out.append((f"{path}:{start + 1}-{min(start + WINDOW, len(lines))}", body))
    return tuple(out)


@lru_cache(maxsize=1)
def long_query() -> str:
    """:data:`LONG_QUERY_WORDS` words of the probe files, in order (repeated as needed)."""
    words = " ".join(text for _, text, _ in probe_files()).split()
    return " ".join(words[i % len(words)] for i in range(LONG_QUERY_WORDS))


def probe_queries() -> list[str]:
    """What an index is searched for: the fixed queries and one longer than any query cut."""
    return [*QUERIES, long_query()]


def probe_texts() -> list[str]:
    """Texts an embedder is run on: queries, the first window of every probe file (every language) and
    one long text (past any model's window)."""
    first: dict[str, str] = {}
    for doc_id, text in probe_documents():
        first.setdefault(doc_id.rsplit(":", 1)[0], text)
    return [*QUERIES, *first.values(), "\n".join(text for _, text, _ in probe_files())]


def probe_vectors(n: int, dim: int = VECTOR_DIM, seed: int = 0) -> np.ndarray:
    """``n`` seeded unit vectors (float32)."""
    vecs = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


def chunker_probe(chunker: Any, chunk_files: Callable[[Any, Any], Sequence[Any]]) -> list[tuple]:
    """Every chunk a chunker makes of every probe file through ``chunk_files`` (the shared
    :func:`retrievers.chunkers.base.chunk_files`, passed in: this package sits below the chunkers)."""
    return [(c.id, c.path, c.start, c.end, c.text, c.language, c.symbol)
            for c in chunk_files(chunker, probe_files())]


def index_probe(index: Any) -> list[list[tuple[str, float]]]:
    """An index built from the probe documents (text) or seeded vectors (vector), searched for top K:
    the hits with their scores (the golden check's); :func:`ranked_ids` is what a key holds of them."""
    ids = [i for i, _ in probe_documents()]
    if getattr(index, "input", "text") == "vector":
        ids = [f"v{i:03d}" for i in range(N_VECTORS)]
        index.build(ids, probe_vectors(N_VECTORS))
        return index.search(probe_vectors(len(QUERIES), seed=1), K)
    index.build(ids, [t for _, t in probe_documents()])
    return index.search(probe_queries(), K)


def _tied(a: float, b: float) -> bool:
    return abs(a - b) <= TIE_RTOL * max(1.0, abs(a), abs(b))


def ranked_ids(hits: Sequence[Sequence[tuple[str, float]]]) -> list[list[list[str]]]:
    """Each query's hits as ranked tie groups of ids: consecutive scores within :data:`TIE_RTOL` are one
    group, its ids sorted. Discrete, so the same on every CPU where scores differ only in low bits."""
    out = []
    for query_hits in hits:
        groups: list[list[str]] = []
        last = None
        for doc_id, score in query_hits:
            if last is None or not _tied(last, float(score)):
                groups.append([])
            groups[-1].append(str(doc_id))
            last = float(score)
        out.append([sorted(g) for g in groups])
    return out


def tokenizer_probe(tokenize: Callable[[str], Sequence[str]]) -> list[list[str]]:
    """The tokens of every probe text."""
    return [list(tokenize(t)) for t in probe_texts()]


def encoder_probe(encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """Vectors an embedder's own document encoding makes of the probe texts (no cache)."""
    return np.asarray(encode(probe_texts()), dtype=np.float32)
