"""Lexical (BM25-family) indexes, one module per engine."""
