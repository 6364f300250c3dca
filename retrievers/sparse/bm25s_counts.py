"""Build a bm25s index from counted documents (one entry per distinct (document, term) pair) with numpy
over the whole corpus, instead of the library's Python loops over documents and their token lists.

The result is the index ``BM25.index(token lists)`` builds, entry for entry and bit for bit: the same
document frequencies, idf and non-occurrence values (the library's own scorers, called once per
distinct document frequency with the same Python arguments), the same term-frequency components (the
library's own scorer, called once per distinct document length with that length as a Python int, as
the library calls it per document), the same per-entry products in the same dtypes, and the same CSC
construction. Only the ids the vocabulary assigns to terms differ (bm25s numbers them in set order).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

if TYPE_CHECKING:
    import bm25s

EMPTY_TOKEN = ""  # the token bm25s adds to the vocabulary (create_empty_token=True) to score empty queries
COUNT_DTYPE = np.int64  # lengths, rows, term ids and frequencies while checking and grouping
CSC_BACKENDS = ("scipy", "numpy")


def index_from_counts(bm25: bm25s.BM25, lengths: np.ndarray, doc: np.ndarray, term: np.ndarray,
                      tf: np.ndarray, terms: Sequence[str]) -> None:
    """Fill ``bm25`` (a fresh bm25s.BM25) as ``bm25.index(token lists, show_progress=False)`` would.

    ``lengths``: tokens per document; ``doc``, ``term``, ``tf``: one entry per distinct (document, term)
    pair, documents non-decreasing, ``term`` an index into ``terms``, ``tf`` its frequency (>= 1) in the
    document. Terms no document uses stay out of the vocabulary. Raises ValueError where the library
    does (no document has a token) and on inconsistent input.
    """
    if bm25.csc_backend not in CSC_BACKENDS:
        raise ValueError(f"Invalid csc_backend value: {bm25.csc_backend}. Choose from 'scipy', 'numpy'.")
    lengths, doc, term, tf = _checked(lengths, doc, term, tf, len(terms))
    used, ids = _compact_ids(term, len(terms))
    vocab_dict = _vocab_dict(used, terms)
    n_docs, avg_doc_len = len(lengths), lengths.mean()  # the library's np.array(lengths).mean()
    doc_freqs = np.bincount(ids, minlength=len(used))  # each (document, term) pair occurs once
    idf = _idf_array(bm25, doc_freqs, n_docs)
    nonoccurrence = _nonoccurrence_array(bm25, doc_freqs, n_docs, avg_doc_len)
    tfc = _tfc(bm25, lengths, doc, tf, avg_doc_len)
    data = _entry_scores(bm25, idf, nonoccurrence, ids, tfc)
    scores = _csc_scores(bm25, data, doc.astype(bm25.int_dtype), ids.astype(bm25.int_dtype),
                         (n_docs, len(used)))
    bm25.nonoccurrence_array = nonoccurrence
    bm25.scores = scores
    bm25.vocab_dict = vocab_dict
    bm25.unique_token_ids_set = set(vocab_dict.values())


def _as_counts(values: np.ndarray, name: str) -> np.ndarray:
    """``values`` as a 1-d COUNT_DTYPE array; TypeError unless they are integers."""
    arr = np.asarray(values)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=COUNT_DTYPE)


def _checked(lengths: np.ndarray, doc: np.ndarray, term: np.ndarray, tf: np.ndarray,
             n_terms: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four inputs as COUNT_DTYPE arrays, after checking they describe a corpus bm25s can index."""
    lengths, doc, term, tf = (_as_counts(a, n) for a, n in
                              ((lengths, "lengths"), (doc, "doc"), (term, "term"), (tf, "tf")))
    if not len(doc) == len(term) == len(tf):
        raise ValueError(f"doc, term and tf differ in length: {len(doc)}, {len(term)}, {len(tf)}")
    if not len(doc):
        raise ValueError("no document has a token: bm25s cannot index an empty vocabulary")
    if doc[0] < 0 or doc[-1] >= len(lengths) or np.any(np.diff(doc) < 0):
        raise ValueError("doc must be non-decreasing rows in [0, len(lengths))")
    if term.min() < 0 or term.max() >= n_terms:
        raise ValueError(f"term ids must lie in [0, len(terms)) = [0, {n_terms})")
    if tf.min() < 1:
        raise ValueError("tf must be at least 1")
    if not np.array_equal(np.bincount(doc, weights=tf, minlength=len(lengths)), lengths):
        raise ValueError("each document's length must be the sum of its term frequencies")
    return lengths, doc, term, tf


def _compact_ids(term: np.ndarray, n_terms: int) -> tuple[np.ndarray, np.ndarray]:
    """(the term ids used, ascending; each entry's index among them): the index's own term ids."""
    is_used = np.zeros(n_terms, dtype=bool)
    is_used[term] = True
    rank = np.cumsum(is_used) - 1
    return np.flatnonzero(is_used), rank[term]


def _vocab_dict(used: np.ndarray, terms: Sequence[str]) -> dict[str, int]:
    """term -> index id for the used terms, plus the empty token the library appends if absent."""
    vocab_dict = {terms[t]: i for i, t in enumerate(used.tolist())}
    if len(vocab_dict) != len(used):
        raise ValueError("terms used by the documents must be distinct strings")
    if EMPTY_TOKEN not in vocab_dict:
        vocab_dict[EMPTY_TOKEN] = max(vocab_dict.values()) + 1
    return vocab_dict


def _by_doc_freq(doc_freqs: np.ndarray, value_of: Callable[[int], float], dtype: str) -> np.ndarray:
    """``value_of(df)`` for each term's df, assigned into a ``dtype`` array element by element as the
    library does, evaluated once per distinct df."""
    distinct, inverse = np.unique(doc_freqs, return_inverse=True)
    table = np.zeros(len(distinct), dtype=dtype)
    for i, df in enumerate(distinct.tolist()):
        table[i] = value_of(df)
    return table[inverse]


def _idf_array(bm25: bm25s.BM25, doc_freqs: np.ndarray, n_docs: int) -> np.ndarray:
    """bm25s's ``_build_idf_array``: the idf scorer of ``bm25.idf_method`` on (df, N) as Python ints."""
    from bm25s.scoring import _select_idf_scorer

    idf_of = _select_idf_scorer(bm25.idf_method)
    return _by_doc_freq(doc_freqs, lambda df: idf_of(df, N=n_docs), bm25.dtype)


def _nonoccurrence_array(bm25: bm25s.BM25, doc_freqs: np.ndarray, n_docs: int,
                         avg_doc_len: np.float64) -> np.ndarray | None:
    """bm25s's ``_build_nonoccurrence_array`` (BM25L and BM25+ only, else None): idf times the tfc of
    tf 0 in a document of average length."""
    if bm25.method not in bm25.methods_requiring_nonoccurrence:
        return None
    from bm25s.scoring import _select_idf_scorer, _select_tfc_scorer

    idf_of = _select_idf_scorer(bm25.idf_method)
    tfc = _select_tfc_scorer(bm25.method)(tf_array=0, l_d=avg_doc_len, l_avg=avg_doc_len, k1=bm25.k1,
                                          b=bm25.b, delta=bm25.delta)
    return _by_doc_freq(doc_freqs, lambda df: idf_of(df, N=n_docs) * tfc, bm25.dtype)


def _tfc(bm25: bm25s.BM25, lengths: np.ndarray, doc: np.ndarray, tf: np.ndarray,
         avg_doc_len: np.float64) -> np.ndarray:
    """Each entry's term-frequency component, as the library's scorer gives it in its document's call.

    The scorer runs once per distinct document length L, with L as a Python int (the library passes
    ``len(tokens)``) and tf = 1..(largest tf in documents of length L) as a ``bm25.dtype`` array (the
    library's tf array); entries look their value up. Scalar/array promotion (numpy 1's value-based
    casting or numpy 2's NEP 50) thus applies exactly as in the library's per-document call.
    """
    from bm25s.scoring import _select_tfc_scorer

    score = _select_tfc_scorer(bm25.method)
    distinct, group_of_doc = np.unique(lengths, return_inverse=True)
    group = group_of_doc[doc]
    top_tf = np.zeros(len(distinct), dtype=COUNT_DTYPE)
    np.maximum.at(top_tf, group, tf)
    tables = [score(tf_array=np.arange(1, top + 1, dtype=COUNT_DTYPE).astype(bm25.dtype), l_d=length,
                    l_avg=avg_doc_len, k1=bm25.k1, b=bm25.b, delta=bm25.delta)
              for length, top in zip(distinct.tolist(), top_tf.tolist())]
    if len({t.dtype for t in tables}) != 1:
        raise RuntimeError("the tfc scorer's dtype depends on the document length; cannot vectorise")
    starts = np.cumsum(top_tf) - top_tf
    return np.concatenate(tables)[starts[group] + tf - 1]


def _entry_scores(bm25: bm25s.BM25, idf: np.ndarray, nonoccurrence: np.ndarray | None, ids: np.ndarray,
                  tfc: np.ndarray) -> np.ndarray:
    """idf * tfc (minus the non-occurrence score) per entry in the scorer's dtype, stored in ``bm25.dtype``
    (the library writes each document's scores into a ``bm25.dtype`` buffer)."""
    scores = idf[ids] * tfc
    if nonoccurrence is not None:
        scores -= nonoccurrence[ids]
    return scores.astype(bm25.dtype)


def _csc_scores(bm25: bm25s.BM25, data: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                shape: tuple[int, int]) -> dict:
    """The library's ``scores`` dict: its CSC construction for ``bm25.csc_backend`` on the entries."""
    if bm25.csc_backend == "scipy":
        import scipy.sparse as sp

        matrix = sp.csc_matrix((data, (rows, cols)), shape=shape, dtype=bm25.dtype)
        data, indices, indptr = matrix.data, matrix.indices, matrix.indptr
    else:
        data, indices, indptr = bm25._np_csc(data=data, rows=rows, cols=cols, shape=shape)
        data = data.astype(bm25.dtype)
    _check_distinct_pairs(indices, indptr, len(rows))
    return {"data": data, "indices": indices, "indptr": indptr, "num_docs": shape[0]}


def _check_distinct_pairs(indices: np.ndarray, indptr: np.ndarray, n_entries: int) -> None:
    """ValueError if a (document, term) pair occurred twice: scipy sums such pairs into one entry, and
    otherwise rows must rise strictly within a column."""
    if len(indices) != n_entries:
        raise ValueError("each (doc, term) pair must occur once")
    rising = np.diff(indices) > 0
    rising[indptr[1:-1] - 1] = True  # every column is non-empty: each boundary is a pair of neighbours
    if not rising.all():
        raise ValueError("each (doc, term) pair must occur once")
