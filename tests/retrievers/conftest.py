"""Real corpus fixtures for the index backends: installed package source, chunked in 20-line
windows; 200 of them embedded once per session with the packaged MiniLM (cached under
.cache/test-embeddings/backends, so a rerun does not embed again), the ANN tests' 2,000 read from a slice."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["pkg:jinja2", "pkg:click", "pkg:requests"]


@dataclass(frozen=True)
class Embedded:
    ids: list[str]
    texts: list[str]
    vectors: np.ndarray


@pytest.fixture(scope="session")
def embedder():
    """The packaged all-MiniLM-L6-v2 with an on-disk embedding cache of its own: the texts embedded here
    (20-line windows) are embedded by no other test, and the cache's lock is per file and model, so a
    fresh clone's embedding of them does not hold up the runs of the other worker, which embed into the
    shared .cache/test-embeddings."""
    from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(cache_dir=str(ROOT / ".cache" / "test-embeddings" / "backends"))


def chunks_of(cache_dir: Path) -> list:
    """Over 2,000 real chunks: jinja2, click and requests source in 20-line windows, overlap 5, by id (also
    what ``tests/slices/ann/make_vectors.py`` embeds)."""
    from hermes_eval.corpus import load_corpus
    from retrievers.chunkers.base import chunk_files
    from retrievers.chunkers.lines import LineChunker

    corpus = load_corpus(SOURCES, name="backend-tests", cache_dir=cache_dir)
    chunks = chunk_files(LineChunker(20, 5), [(f.path, f.text, f.language) for f in corpus.files])
    return sorted(chunks, key=lambda c: c.id)


@pytest.fixture(scope="session")
def real_chunks(tmp_path_factory):
    return chunks_of(tmp_path_factory.mktemp("corpus"))


ANN_SLICE = ROOT / "tests" / "slices" / "ann" / "vectors.npz"


@pytest.fixture(scope="session")
def ann_slice() -> dict[str, np.ndarray]:
    """The committed slice written by ``tests/slices/ann/make_vectors.py``, read once: MiniLM vectors of
    ``chunks_of``'s chunks and of 100 code queries (embedding them here cost a fresh clone two minutes of
    CPU for vectors whose origin the ANN-against-exact comparison does not see)."""
    with np.load(ANN_SLICE) as data:
        return {k: data[k] for k in ("ids", "vectors", "queries")}


@pytest.fixture(scope="session")
def real_corpus(ann_slice) -> Embedded:
    """Over 2,000 real chunks' MiniLM vectors, for the ANN recall tests."""
    return Embedded([str(i) for i in ann_slice["ids"]], [], ann_slice["vectors"].astype(np.float32))


@pytest.fixture(scope="session")
def real_queries(ann_slice) -> np.ndarray:
    """100 query vectors of the same slice: the first two lines of a seeded sample of its chunks, as a code
    query, embedded with MiniLM's query side."""
    return ann_slice["queries"].astype(np.float32)


@pytest.fixture(scope="session")
def small_corpus(real_chunks, embedder) -> Embedded:
    """200 real chunks (with vectors) for the protocol suite: a seeded sample of ``real_chunks``, embedded
    alone (the vectors of the same texts as in ``real_corpus``, computed without the other 2,000)."""
    rng = np.random.default_rng(11)
    picks = sorted(rng.choice(len(real_chunks), size=200, replace=False))
    texts = [real_chunks[i].text for i in picks]
    return Embedded([real_chunks[i].id for i in picks], texts, embedder.embed_documents(texts))


@pytest.fixture(scope="session")
def models_dir() -> Path:
    """Where derived models are built: the project's cache, as the product builds them (embedder
    ``models_dir: ${paths.cache}``). Builds are content-addressed and locked (retrievers.embedders.builds),
    so both test workers and later sessions share one build; a fresh clone builds them here once."""
    return Path(__file__).resolve().parents[2] / ".cache"  # tests/retrievers/conftest.py -> the checkout


@pytest.fixture(scope="session")
def derived_embedders(models_dir) -> dict:
    """Each derived embedder, built (once) and loaded."""
    from derived_cases import DERIVED, make_embedder

    out = {}
    for name in DERIVED:
        emb = make_embedder(name, models_dir)
        emb.ready()
        out[name] = emb
    return out


@pytest.fixture(scope="session")
def code_texts() -> list[str]:
    """80 real code texts: the installed jinja2's source in 25-line windows (first 80, sorted by path)."""
    import jinja2

    texts = []
    for path in sorted(Path(jinja2.__file__).parent.glob("*.py")):
        lines = path.read_text().splitlines()
        texts += ["\n".join(lines[i:i + 25]) for i in range(0, len(lines), 25) if lines[i:i + 25]]
    return texts[:80]
