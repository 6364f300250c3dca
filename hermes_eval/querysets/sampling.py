"""Query-set sampling: drop duplicate query texts, seeded sampling stratified by repository
(and by language for the polyglot sets)."""
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


def round_robin(queries: Sequence[Query], seed: int, stratum: Callable[[Query], str]) -> list[Query]:
    """Every query, in seeded round-robin order over strata (each stratum shuffled by ``seed``)."""
    rng = random.Random(seed)
    by_key: dict[str, list[Query]] = {}
    for q in sorted(queries, key=lambda q: q.qid):
        by_key.setdefault(stratum(q), []).append(q)
    for pool in by_key.values():
        rng.shuffle(pool)
    out: list[Query] = []
    pools = [by_key[k] for k in sorted(by_key)]
    while any(pools):
        for pool in pools:
            if pool:
                out.append(pool.pop())
    return out


def stratified_sample(queries: Sequence[Query], max_queries: int, seed: int,
                      stratum: Callable[[Query], str] = lambda q: q.repo) -> list[Query]:
    """Seeded round-robin over strata (repositories) so every one is represented; sorted by qid."""
    return sorted(round_robin(queries, seed, stratum)[:max_queries], key=lambda q: q.qid)


def language_of(q: Query) -> str:
    """The language a query's gold is in (``meta.language``; '' when the generator gives none)."""
    return str(q.meta.get("language", ""))


def balanced_sample(queries: Sequence[Query], max_queries: int, seed: int) -> list[Query]:
    """Seeded round-robin over languages, and within a language over repositories, so gold is
    spread over every language present; sorted by qid."""
    by_lang: dict[str, list[Query]] = {}
    for q in queries:
        by_lang.setdefault(language_of(q), []).append(q)
    orders = [round_robin(by_lang[k], seed, lambda q: q.repo)[::-1] for k in sorted(by_lang)]
    out: list[Query] = []
    while len(out) < max_queries and any(orders):
        for order in orders:
            if order and len(out) < max_queries:
                out.append(order.pop())
    return sorted(out, key=lambda q: q.qid)
