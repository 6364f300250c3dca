"""Shared query-set helpers: drop duplicate query texts, seeded sampling stratified by repository."""
from __future__ import annotations

import random
from collections import Counter
from typing import Callable, Sequence

from hermes_eval.core import Query


def text_key(text: str) -> str:
    """The de-duplication key of a query text: case- and whitespace-insensitive."""
    return " ".join(text.split()).lower()


def unique_texts(queries: Sequence[Query]) -> tuple[list[Query], int]:
    """Queries whose text occurs once; a text shared by several candidates is ambiguous, so all go.

    Returns (kept, dropped)."""
    counts = Counter(text_key(q.query) for q in queries)
    kept = [q for q in queries if counts[text_key(q.query)] == 1]
    return kept, len(queries) - len(kept)


def stratified_sample(queries: Sequence[Query], max_queries: int, seed: int,
                      stratum: Callable[[Query], str] = lambda q: q.repo) -> list[Query]:
    """Seeded round-robin over strata (repositories) so every one is represented; sorted by qid."""
    rng = random.Random(seed)
    by_key: dict[str, list[Query]] = {}
    for q in sorted(queries, key=lambda q: q.qid):
        by_key.setdefault(stratum(q), []).append(q)
    for pool in by_key.values():
        rng.shuffle(pool)
    out: list[Query] = []
    pools = [by_key[k] for k in sorted(by_key)]
    while len(out) < max_queries and any(pools):
        for pool in pools:
            if pool and len(out) < max_queries:
                out.append(pool.pop())
    return sorted(out, key=lambda q: q.qid)


def manifest(generator: str, version: str, seed: int, params: dict, corpus, counts: dict,
             skipped: dict, **extra) -> dict:
    """The manifest every generator writes beside its queries."""
    return dict({"generator": generator, "generator_version": version, "seed": seed, "params": params,
                 "corpus": corpus.name, "corpus_fingerprint": corpus.fingerprint,
                 "counts": counts, "skipped": dict(sorted(skipped.items()))}, **extra)
