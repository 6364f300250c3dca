"""Stage 4, judge: hygiene of the query set against the indexed corpus, then every metric with CIs."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping, Sequence

from hermes_eval.config.settings import HygieneSettings
from hermes_eval.core import Corpus, Query, QuerySet
from hermes_eval.cache.content import Cache, key_of
from hermes_eval.judge.corpus_leaks import LeakRules, corpus_leak_places, leak_check_key
from hermes_eval.judge.hygiene import Hygiene, check, token_counter
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.judge.score import Scores, score

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Judgement:
    hygiene: Hygiene
    warnings: tuple[str, ...]
    scores: Scores | None = None


def corpus_leaks_of(qs: QuerySet, indexed: Corpus, h: HygieneSettings, cache: Cache | None):
    """qid -> places where the query's text occurs elsewhere in ``indexed`` (None: switched off);
    the same for every arm of a set, so it is cached by corpus, queries and rules."""
    if not h.corpus_leaks:
        return None
    rules = LeakRules(min_run=h.corpus_leak_chars, min_query_chars=h.corpus_leak_min_chars,
                      max_copies=h.corpus_leak_max_copies)

    def compute():
        return corpus_leak_places(qs.queries, {f.path: f.text for f in indexed.files}, rules, qs.scopes)

    if cache is None:
        return compute()
    key = key_of(leak_check_key(), indexed.fingerprint, rules.min_run, rules.min_query_chars, rules.max_copies, list(qs.scopes),
                 [[q.qid, q.query, [[s.to_dict() for s in spans] for spans in (q.gold, q.exclude, q.origin())]]
                  for q in qs.queries])
    return cache.get_or_compute("leaks", key, compute)


def hygiene_of(qs: QuerySet, indexed: Corpus, h: HygieneSettings, lookup: ChunkLookup | None = None,
               cache: Cache | None = None, counter: tuple | None = None) -> Hygiene:
    """The hygiene counts of ``qs`` against what will be indexed (and, given the run's chunks,
    how many queries have nothing judgeable), with the embedder's tokenizer (``counter``: the
    :func:`token_counter` of ``h`` already loaded)."""
    count, name = counter or token_counter(h.tokenizer_model)
    return check(qs, indexed, max_seq_tokens=h.max_seq_tokens, count_tokens=count, token_counter_name=name,
                 leak_lines=h.leak_lines, leak_line_chars=h.leak_line_chars, leak_chars=h.leak_chars,
                 corpus_places=corpus_leaks_of(qs, indexed, h, cache), corpus_leak_chars=h.corpus_leak_chars,
                 lookup=lookup)


def leak_warnings(hygiene: Hygiene, threshold: float) -> tuple[str, ...]:
    """Loud warnings when queries leak into their gold text (logged, and kept for the record)."""
    out: list[str] = []
    if hygiene.self_retrieval_share > threshold:
        out.append(f"SELF-RETRIEVAL: {hygiene.self_retrieval_share:.1%} of queries appear verbatim "
                   f"in their gold text (threshold {threshold:.0%}); scores are inflated")
    elif hygiene.leak_share > threshold:
        out.append(f"QUERY LEAK: {hygiene.leak_share:.1%} of queries share long runs of lines or "
                   f"characters with their gold text ({hygiene.leak_in_gold}) or occur elsewhere in the "
                   f"indexed corpus ({hygiene.leak_elsewhere}; places under hygiene.named.leak_places) "
                   f"(threshold {threshold:.0%}); scores may be inflated")
    if hygiene.unanswerable:
        out.append(f"UNANSWERABLE: {hygiene.unanswerable} of {hygiene.queries} queries have no judgeable "
                   f"chunk in this chunking (every gold chunk overlaps their exclude span); they score 0 "
                   f"(hygiene.named.unanswerable)")
    for w in out:
        log.warning(w)
    return tuple(out)


def check_queries(qs: QuerySet, indexed: Corpus, h: HygieneSettings, lookup: ChunkLookup | None = None,
                  cache: Cache | None = None) -> Judgement:
    """Hygiene before any search: counts and warnings."""
    hygiene = hygiene_of(qs, indexed, h, lookup, cache)
    return Judgement(hygiene, leak_warnings(hygiene, h.self_retrieval_warn))


def judge(before: Judgement, queries: Sequence[Query], rankings: Mapping[str, list[str]], lookup: ChunkLookup,
          seed: int, n_resamples: int, files: dict[str, list[str]] | None = None) -> Judgement:
    """Every registered metric of ``rankings`` (per query and with bootstrap CIs); ``files``: the file
    rankings of a declared file score (judge/file_score.py), else files by their best chunk."""
    return Judgement(before.hygiene, before.warnings, score(queries, dict(rankings), lookup, seed, n_resamples,
                                                             files))
