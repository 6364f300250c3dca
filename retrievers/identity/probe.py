"""The fixed input every part of a kind is run on, and the probes that run it.

A probe's output goes into the part's key (:mod:`retrievers.identity.key`): a refactor that leaves it
equal keeps the key; a change it shows makes a new one. The input is files of every language the
chunkers know (``probe_files/``), the chunks a line chunker makes of them, fixed queries and seeded
vectors.

Languages that came after the keys were first recorded (Java, C) have their probe files in
``probe_files/later/``: a part's probe reads them only for the later languages it opts in to (a chunker
that parses them itself, a generator that lists them), so every key recorded before them is unchanged
and a change in how an opted-in part treats Java or C still changes its key. Indexes and embedders never
read them.
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
WINDOW = 8  # lines per probe document
VECTOR_DIM = 16
N_VECTORS = 64
K = 5


@lru_cache(maxsize=1)
def probe_files() -> tuple[tuple[str, str, str], ...]:
    """(path, text, language) of every probe file, sorted by path."""
    return tuple((p.name, p.read_text(encoding="utf-8"), LANGUAGES[p.suffix])
                 for p in sorted(FILES.iterdir()) if p.suffix in LANGUAGES)


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


def probe_texts() -> list[str]:
    """Texts an embedder is run on: queries, documents and one long text (past any model's window)."""
    docs = [text for _, text in probe_documents()]
    return [*QUERIES, *docs[:6], "\n".join(text for _, text, _ in probe_files())]


def probe_vectors(n: int, dim: int = VECTOR_DIM, seed: int = 0) -> np.ndarray:
    """``n`` seeded unit vectors (float32)."""
    vecs = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


def chunker_probe(chunker: Any, chunk_files: Callable[[Any, Any], Sequence[Any]],
                  later: frozenset[str] = frozenset()) -> list[tuple]:
    """Every chunk a chunker makes of the probe files through ``chunk_files`` (the shared
    :func:`retrievers.chunkers.base.chunk_files`, passed in: this package sits below the chunkers), and of
    the ``later`` languages' files (:func:`retrievers.chunkers.coverage.probe_chunks` says which)."""
    return [(c.id, c.path, c.start, c.end, c.text, c.language, c.symbol)
            for c in chunk_files(chunker, probe_files() + later_probe_files(frozenset(later)))]


def index_probe(index: Any) -> list[list[tuple[str, float]]]:
    """An index built from the probe documents (text) or seeded vectors (vector), searched for top K."""
    ids = [i for i, _ in probe_documents()]
    if getattr(index, "input", "text") == "vector":
        ids = [f"v{i:03d}" for i in range(N_VECTORS)]
        index.build(ids, probe_vectors(N_VECTORS))
        return index.search(probe_vectors(len(QUERIES), seed=1), K)
    index.build(ids, [t for _, t in probe_documents()])
    return index.search(list(QUERIES), K)


def tokenizer_probe(tokenize: Callable[[str], Sequence[str]]) -> list[list[str]]:
    """The tokens of every probe text."""
    return [list(tokenize(t)) for t in probe_texts()]


def encoder_probe(encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """Vectors an embedder's own document encoding makes of the probe texts (no cache)."""
    return np.asarray(encode(probe_texts()), dtype=np.float32)
