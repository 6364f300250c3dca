"""index_from_counts builds the index bm25s.BM25.index builds from token lists: the same vocabulary,
the same score matrix, bit-equal scores and retrievals for every method, on synthetic and real corpora,
and the result saves and loads."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import bm25s
import numpy as np
import pytest

from retrievers.sparse.bm25s_counts import index_from_counts

ROOT = Path(__file__).resolve().parents[3]
METHODS = ["lucene", "robertson", "atire", "bm25l", "bm25+"]
PARAMS = [dict(k1=1.5, b=0.75, delta=0.5), dict(k1=0.9, b=0.3, delta=1.0)]  # bm25s's defaults, and others
N_DOCS = 150
N_USED, N_UNUSED = 300, 100  # synthetic vocabulary: terms drawn, and terms only the shared vocabulary holds
MAX_LENGTH = 120
ZIPF_EXPONENT = 1.1
EMPTY_ROWS = (0, 17, 18, N_DOCS - 1)  # documents without tokens, at the edges and side by side
N_SOURCE_FILES = 40
N_QUERIES = 40
TOP_K = 5
ABSENT = ["zzz-absent", "another-absent"]
CSC_ARRAYS = ("data", "indices", "indptr")

Corpus = list[list[str]]
Counts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def shared_vocabulary(docs: Corpus, unused: list[str], seed: int) -> list[str]:
    """Every term of ``docs`` plus ``unused``, shuffled: ids neither contiguous nor in corpus order."""
    terms = sorted({t for d in docs for t in d}) + unused
    random.Random(seed).shuffle(terms)
    return terms


def counted(docs: Corpus, terms: list[str]) -> Counts:
    """(lengths, doc, term, tf) of ``docs``, term ids into ``terms``, each document's terms as met."""
    ids = {t: i for i, t in enumerate(terms)}
    per_doc = [Counter(d) for d in docs]
    lengths = np.array([len(d) for d in docs], dtype=np.int64)
    doc = np.repeat(np.arange(len(docs), dtype=np.int64), [len(c) for c in per_doc])
    term = np.array([ids[t] for c in per_doc for t in c], dtype=np.int32)
    tf = np.array([n for c in per_doc for n in c.values()], dtype=np.int32)
    return lengths, doc, term, tf


def synthetic_corpus(seed: int) -> tuple[Corpus, list[str]]:
    """Zipf-distributed draws from N_USED terms, a few empty documents, and a vocabulary with extras."""
    rng = np.random.default_rng(seed)
    used = [f"w{i}" for i in range(N_USED)]
    weights = 1.0 / np.arange(1, N_USED + 1) ** ZIPF_EXPONENT
    lengths = rng.integers(1, MAX_LENGTH, size=N_DOCS)
    lengths[list(EMPTY_ROWS)] = 0
    docs = [rng.choice(used, size=n, p=weights / weights.sum()).tolist() for n in lengths]
    return docs, shared_vocabulary(docs, [f"unused{i}" for i in range(N_UNUSED)], seed)


def source_corpus() -> tuple[Corpus, list[str]]:
    """The project's own Python sources, tokenized by bm25s, with empty documents among them."""
    paths = sorted((ROOT / "retrievers").rglob("*.py"))[:N_SOURCE_FILES]
    docs = bm25s.tokenize([p.read_text() for p in paths], return_ids=False, show_progress=False)
    docs = [[], *docs[:10], [], *docs[10:], []]
    return docs, shared_vocabulary(docs, ["never", "used", "here"], seed=len(docs))


CORPORA = {"synthetic": lambda: synthetic_corpus(seed=7), "source": source_corpus}


@pytest.fixture(scope="module", params=sorted(CORPORA))
def corpus(request) -> tuple[Corpus, list[str]]:
    return CORPORA[request.param]()


def both(docs: Corpus, terms: list[str], **params) -> tuple[bm25s.BM25, bm25s.BM25]:
    """(the library's index of ``docs``, index_from_counts's), built with the same parameters."""
    library, ours = bm25s.BM25(**params), bm25s.BM25(**params)
    library.index(docs, show_progress=False)
    index_from_counts(ours, *counted(docs, terms), terms)
    return library, ours


def queries(docs: Corpus, seed: int) -> list[list[str]]:
    """Queries of corpus terms, some with absent or repeated terms, one of absent terms only."""
    rng = random.Random(seed)
    present = sorted({t for d in docs for t in d})
    out = [ABSENT[:1]]
    for _ in range(N_QUERIES):
        query = rng.sample(present, rng.randint(1, 6)) + rng.sample(ABSENT, rng.randint(0, 1))
        out.append(query + query[: rng.randint(0, 2)])  # a repeated term counts each time
    return out


def dense(bm25: bm25s.BM25, order: list[str]) -> np.ndarray:
    """The score matrix as documents x terms, columns in ``order`` (so vocabulary ids do not matter)."""
    m = bm25.scores
    out = np.zeros((m["num_docs"], len(order)), dtype=m["data"].dtype)
    for j, t in enumerate(order):
        col = bm25.vocab_dict[t]
        start, end = m["indptr"][col], m["indptr"][col + 1]
        out[m["indices"][start:end], j] = m["data"][start:end]
    return out


def nonoccurrence(bm25: bm25s.BM25, order: list[str]) -> np.ndarray | None:
    """The non-occurrence scores of the terms in ``order``, or None when the method has none."""
    arr = bm25.nonoccurrence_array
    return None if arr is None else arr[[bm25.vocab_dict[t] for t in order]]


def assert_same_index(library: bm25s.BM25, ours: bm25s.BM25) -> None:
    """Same vocabulary, matrix (values, dtypes, shape) and non-occurrence scores, up to term ids."""
    assert set(ours.vocab_dict) == set(library.vocab_dict)
    assert ours.unique_token_ids_set == set(ours.vocab_dict.values())
    n_columns = len(library.scores["indptr"]) - 1  # the appended empty token has no column
    order = sorted(t for t, i in library.vocab_dict.items() if i < n_columns)
    got, want = ours.scores, library.scores
    assert got["num_docs"] == want["num_docs"]
    assert [got[k].dtype for k in CSC_ARRAYS] == [want[k].dtype for k in CSC_ARRAYS]
    assert len(got["data"]) == len(want["data"])
    assert np.array_equal(dense(ours, order), dense(library, order))
    want_nonocc, got_nonocc = nonoccurrence(library, order), nonoccurrence(ours, order)
    assert (want_nonocc is None) == (got_nonocc is None)
    assert want_nonocc is None or np.array_equal(got_nonocc, want_nonocc)


def assert_same_scores(library: bm25s.BM25, ours: bm25s.BM25, qs: list[list[str]]) -> None:
    """Bit-equal get_scores for every query, and the same top-k documents and scores."""
    for q in qs:
        want, got = library.get_scores(q), ours.get_scores(q)
        assert got.dtype == want.dtype and np.array_equal(got, want), q
    k = min(TOP_K, library.scores["num_docs"])
    want_docs, want_scores = library.retrieve(qs, k=k, show_progress=False)
    got_docs, got_scores = ours.retrieve(qs, k=k, show_progress=False)
    assert np.array_equal(got_docs, want_docs) and np.array_equal(got_scores, want_scores)


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "k1={k1},b={b},delta={delta}".format(**p))
@pytest.mark.parametrize("method", METHODS)
def test_counts_index_as_token_lists(corpus, method, params, tmp_path):
    docs, terms = corpus
    library, ours = both(docs, terms, method=method, **params)
    assert_same_index(library, ours)
    qs = queries(docs, seed=len(docs))
    assert_same_scores(library, ours, qs)
    ours.save(tmp_path, show_progress=False)
    loaded = bm25s.BM25.load(tmp_path, show_progress=False)
    assert loaded.vocab_dict == ours.vocab_dict
    assert_same_index(library, loaded)
    assert_same_scores(library, loaded, qs)


@pytest.mark.parametrize("settings", [dict(csc_backend="scipy"), dict(method="bm25l", idf_method="atire"),
                                      dict(method="bm25+", dtype="float64", int_dtype="int64")],
                         ids=["scipy-csc", "idf-method", "float64"])
def test_other_settings_index_as_token_lists(settings):
    docs, terms = synthetic_corpus(seed=11)
    library, ours = both(docs, terms, **settings)
    assert_same_index(library, ours)
    assert_same_scores(library, ours, queries(docs, seed=11))


def test_the_empty_string_as_a_term_is_indexed_as_the_library_does():
    docs = [["a", "", "a"], [], ["b", "b", ""]]
    library, ours = both(docs, ["b", "unused", "", "a"])
    assert_same_index(library, ours)
    assert_same_scores(library, ours, [["a"], ["b", "a", "b"], ["missing"]])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the library divides by a zero or empty mean first
@pytest.mark.parametrize("docs", [[[], []], []], ids=["no-tokens", "no-documents"])
def test_a_corpus_without_tokens_is_refused_as_by_the_library(docs):
    with pytest.raises(ValueError):
        bm25s.BM25().index(docs, show_progress=False)
    with pytest.raises(ValueError):
        index_from_counts(bm25s.BM25(), *counted(docs, ["unused"]), ["unused"])


def corrupted(kind: str) -> Counts:
    """Counts of a small corpus, broken in one way."""
    lengths, doc, term, tf = counted([["a", "b", "a"], ["b"], ["c", "a"]], ["a", "b", "c"])
    if kind == "length":
        lengths[0] += 1
    elif kind == "order":
        doc = doc[::-1].copy()
    elif kind == "duplicate":
        doc, term, tf = np.append(doc, 2), np.append(term, 2), np.append(tf, 1)
        lengths[2] += 1
    elif kind == "term-range":
        term[0] = 3
    return lengths, doc, term, tf


@pytest.mark.parametrize("kind", ["length", "order", "duplicate", "term-range"])
@pytest.mark.parametrize("csc_backend", ["numpy", "scipy"])
def test_inconsistent_counts_are_refused(kind, csc_backend):
    with pytest.raises(ValueError):
        index_from_counts(bm25s.BM25(csc_backend=csc_backend), *corrupted(kind), ["a", "b", "c"])
