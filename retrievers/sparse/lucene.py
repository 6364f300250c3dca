"""Lucene's default search without Java, float for float, by concern:

- :mod:`retrievers.sparse.lucene_analyzer`: Lucene 6's ``StandardAnalyzer`` (tokenizer, lower case, stop words);
- :mod:`retrievers.sparse.lucene_norms`: the one-byte document lengths of Lucene 6 and of Lucene 8/9;
- :mod:`retrievers.sparse.lucene_query_words`: a query cut to its first words (BLIZZARD's baseline);
- :mod:`retrievers.sparse.lucene6`: Lucene 6.2's BM25 (:class:`Lucene6BM25Index`);
- :mod:`retrievers.sparse.lucene9`: Lucene 8/9's BM25, as Pyserini runs it (:class:`Lucene9BM25Index`).

This module re-exports their public names: presets name ``retrievers.sparse.lucene.CLASS`` as ``_target_``, and
the parts keep the names they declared when first recorded (``@declare``), so runs keep their config hashes.
"""
from __future__ import annotations

from retrievers.sparse.lucene6 import MAX_CLAUSES, Lucene6BM25Index
from retrievers.sparse.lucene9 import Lucene9BM25Index
from retrievers.sparse.lucene_analyzer import (ENGLISH_STOP_WORDS, MAX_TOKEN_LENGTH, StandardAnalyzer, java_lower,
                                               standard_tokens)
from retrievers.sparse.lucene_norms import (LENGTH_TABLE, NORM_TABLE, byte4_to_int, byte315_to_float, decoded_length,
                                            encode_norm, float_to_byte315, int_to_byte4)
from retrievers.sparse.lucene_query_words import first_words

__all__ = ["ENGLISH_STOP_WORDS", "LENGTH_TABLE", "MAX_CLAUSES", "MAX_TOKEN_LENGTH", "NORM_TABLE", "Lucene6BM25Index",
           "Lucene9BM25Index", "StandardAnalyzer", "byte315_to_float", "byte4_to_int", "decoded_length", "encode_norm",
           "first_words", "float_to_byte315", "int_to_byte4", "java_lower", "standard_tokens"]
