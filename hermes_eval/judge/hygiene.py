"""Hygiene checks run before every evaluation; their result goes into the run record.

Gold text is read from the corpus as it will be indexed (masks applied), without the lines a
query excludes. ``self_retrieval``: the whole normalized query occurs verbatim in a gold span.
That is too strict for long left-context queries, so ``leak_in_gold`` also counts a long
overlap: ``leak_lines`` consecutive query lines, or a ``leak_chars``-character run, found in gold
text. ``leak_elsewhere`` counts queries whose text occurs anywhere else in the indexed corpus
(``corpus_leaks.py``, places named); ``leak`` is either. ``unanswerable``: queries with no
judgeable chunk in this run's chunking (they score 0 at chunk level; the qrels carry a sentinel
so external tools agree). ``answer_in_prompt``: completion tasks whose prompt already shows the
answer (flagged by their generator). ``duplicate_docs``: documents whose exact text another
document of the indexed corpus already has (extra copies); ``twin_gold``: queries whose gold file
has such an identical twin outside their gold, which the qrels judge irrelevant (MTEB's CoSQA
does this: CoIR-team/coir#18); ``dedupe=true`` collapses the copies.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Mapping, Sequence

from hermes_eval.core import Query
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.queryset import QuerySet, scope_of
from hermes_eval.core import Span
from hermes_eval.judge.leaks import (TokenCounter, approx_tokens, lexically_contained, may_exceed, normalize,
                                     shares_lines, shares_run, token_counter)
from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels, unanswerable

__all__ = ["Hygiene", "check", "normalize", "token_counter"]

NAMED = 20  # queries named in the record per problem (every one is in per_query.parquet)
# counts the record also gives as a share of the queries
SHARED = ("self_retrieval", "leak", "leak_in_gold", "leak_elsewhere", "lexical_containment", "too_long",
          "answer_in_prompt", "twin_gold", "unanswerable")
FLAGS = ("unanswerable", "leak_in_gold", "leak_elsewhere", "answer_in_prompt", "twin_gold")


@dataclass(frozen=True)
class Hygiene:
    queries: int
    self_retrieval: int  # query text (normalized) found verbatim inside a gold span's text
    empty_gold: int
    gold_outside_corpus: int
    duplicate_qids: int
    exclude_covers_gold: int
    leak: int = 0  # leak_in_gold or leak_elsewhere
    lexical_containment: int = 0  # every content word of the query occurs in its gold text
    too_long: int = 0  # queries longer than the embedder's max sequence (they get truncated)
    max_seq_tokens: int | None = None
    token_counter: str = "approx"
    leak_in_gold: int = 0  # self_retrieval, or a long run of query lines/characters in gold text
    leak_elsewhere: int = 0  # query text found elsewhere in the indexed corpus (None: not checked)
    corpus_leak_chars: int | None = None  # the run length it looked for (None: off)
    unanswerable: int | None = None  # no judgeable chunk (None: no chunking given)
    answer_in_prompt: int = 0
    duplicate_docs: int = 0  # extra copies of an identical document text under other paths
    twin_gold: int = 0  # queries whose gold file has an identical twin judged irrelevant
    flags: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # qid -> its FLAGS
    places: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # qid -> leak places

    @property
    def self_retrieval_share(self) -> float:
        return self.self_retrieval / self.queries if self.queries else 0.0

    @property
    def leak_share(self) -> float:
        return self.leak / self.queries if self.queries else 0.0

    def named(self, flag: str) -> list[str]:
        """Every qid with ``flag``, in qid order."""
        return sorted(q for q, fs in self.flags.items() if flag in fs)

    def to_dict(self) -> dict:
        """Counts and shares (flat scalars), and under ``named`` the first queries of each problem."""
        n = self.queries or 1
        out = {k: v for k, v in asdict(self).items() if k not in ("flags", "places")}
        out.update({f"{k}_share": round(getattr(self, k) / n, 6) for k in SHARED
                    if getattr(self, k) is not None})
        every = {f: self.named(f) for f in FLAGS}
        named = {f: qids[:NAMED] for f, qids in every.items() if qids}
        leaks = {q: list(self.places[q]) for q in every["leak_elsewhere"][:NAMED]}
        out["named"] = dict(named, leak_places=leaks) if leaks else named
        return out


def gold_texts(q: Query, lines_of: dict[str, list[str]]) -> list[str]:
    """Text of each gold span in the corpus, each run of lines a query excludes left out."""
    out: list[str] = []
    for g in q.gold:
        lines = lines_of.get(g.path)
        if lines is None:
            continue
        run: list[str] = []
        for n in range(g.start, min(g.end, len(lines)) + 1):
            if any(e.path == g.path and e.start <= n <= e.end for e in q.exclude):
                if run:
                    out.append("\n".join(run))
                run = []
            else:
                run.append(lines[n - 1])
        if run:
            out.append("\n".join(run))
    return out


def _copies(files: Mapping, scopes: list[str]) -> dict[str, set[str]]:
    """Path -> the other paths with exactly its text in the same snapshot (only paths that have
    such twins; a file unchanged between two snapshots of a repository is no twin)."""
    by_scope: dict[str, list[str]] = {}
    for p in files:
        by_scope.setdefault(scope_of(p, scopes), []).append(p)
    out: dict[str, set[str]] = {}
    for paths in by_scope.values():  # one snapshot's texts at a time: not a key per file of every snapshot
        groups: dict[str, list[str]] = {}
        for p in paths:
            groups.setdefault(files[p].text, []).append(p)
        out.update((p, set(g) - {p}) for g in groups.values() if len(g) > 1 for p in g)
    return out


def check(qs: QuerySet, corpus: Corpus, max_seq_tokens: int | None = None,
          count_tokens: TokenCounter | None = None, token_counter_name: str | None = None,
          leak_lines: int = 5, leak_line_chars: int = 60, leak_chars: int = 200,
          corpus_places: Mapping[str, Sequence[Span]] | None = None, corpus_leak_chars: int | None = None,
          lookup: ChunkLookup | None = None, max_places: int = 5) -> Hygiene:
    """Count each problem over ``qs`` against the (masked) ``corpus`` that will be indexed.
    ``corpus_places`` (qid -> places, from ``corpus_leaks.corpus_leak_places``) are the
    corpus-wide leaks when that search ran; ``lookup`` (the run's chunks) adds the unanswerable count."""
    files = corpus.by_path()
    # only gold files are read line by line: splitting every file of a many-snapshot corpus costs GBs
    lines_of = {g.path: files[g.path].text.split("\n") for q in qs.queries for g in q.gold if g.path in files}
    counter = count_tokens or approx_tokens
    dup = sum(n - 1 for n in Counter(q.qid for q in qs.queries).values() if n > 1)
    copies = _copies(files, qs.scopes)
    c: Counter = Counter()
    flags: dict[str, list[str]] = {}
    places: dict[str, tuple[str, ...]] = {}
    for q in qs.queries:
        mine = flags.setdefault(q.qid, [])
        if not q.gold:
            c["empty"] += 1
        if any(g.path not in files or g.end > len(lines_of[g.path]) for g in q.gold):
            c["outside"] += 1
        texts = gold_texts(q, lines_of)
        norm = normalize(q.query)
        verbatim = bool(norm) and any(norm in normalize(t) for t in texts)
        c["self"] += verbatim
        in_gold = verbatim or any(shares_lines(q.query, t, leak_lines, leak_line_chars)
                                  or shares_run(q.query, t, leak_chars) for t in texts)
        found = (corpus_places or {}).get(q.qid, ())
        if found:
            places[q.qid] = tuple(f"{s.path}:{s.start}-{s.end}" for s in found[:max_places])
        gold_paths = {g.path for g in q.gold}
        twin = any(copies.get(p, set()) - gold_paths for p in gold_paths)
        for flag, on in (("leak_in_gold", in_gold), ("leak_elsewhere", bool(found)),
                         ("answer_in_prompt", q.meta.get("answer_in_prompt") is True), ("twin_gold", twin)):
            if on:
                mine.append(flag)
                c[flag] += 1
        c["leak"] += in_gold or bool(found)
        c["lexical"] += lexically_contained(q.query, "\n".join(texts))
        if max_seq_tokens and may_exceed(q.query, max_seq_tokens) and counter(q.query) > max_seq_tokens:
            c["long"] += 1
        if q.gold and all(any(e.path == g.path and e.start <= g.start and g.end <= e.end
                              for e in q.exclude) for g in q.gold):
            c["covered"] += 1
    lost = unanswerable(chunk_qrels(qs.queries, lookup)) if lookup is not None else None
    for qid in lost or ():
        flags[qid].append("unanswerable")
    name = token_counter_name or ("approx" if count_tokens is None else "custom")
    return Hygiene(queries=len(qs.queries), self_retrieval=c["self"], empty_gold=c["empty"],
                   gold_outside_corpus=c["outside"], duplicate_qids=dup, exclude_covers_gold=c["covered"],
                   leak=c["leak"], lexical_containment=c["lexical"], too_long=c["long"],
                   max_seq_tokens=max_seq_tokens, token_counter=name, leak_in_gold=c["leak_in_gold"],
                   leak_elsewhere=c["leak_elsewhere"],
                   corpus_leak_chars=corpus_leak_chars if corpus_places is not None else None,
                   unanswerable=None if lost is None else len(lost), answer_in_prompt=c["answer_in_prompt"],
                   duplicate_docs=len(copies) - len({frozenset(v | {p}) for p, v in copies.items()}),
                   twin_gold=c["twin_gold"],
                   flags={q: tuple(f) for q, f in flags.items() if f}, places=places)


def combined(parts: Sequence[Hygiene], qids: Sequence[str]) -> Hygiene:
    """The hygiene of a query set checked in parts (disjoint queries, each part against its own snapshots,
    as :func:`check` checks every query against its own): counts summed, flags and places in ``qids``
    order; ``duplicate_qids`` over ``qids``, which no part sees whole."""
    counts = {f: sum(getattr(p, f) for p in parts) for f in _SUMMED}
    flags = {q: f for p in parts for q, f in p.flags.items()}
    places = {q: f for p in parts for q, f in p.places.items()}
    lost = [p.unanswerable for p in parts]
    first = parts[0]
    return replace(first, **counts, duplicate_qids=sum(n - 1 for n in Counter(qids).values() if n > 1),
                   unanswerable=None if any(n is None for n in lost) else sum(lost),
                   flags={q: flags[q] for q in qids if q in flags},
                   places={q: places[q] for q in qids if q in places})


_SUMMED = ("queries", "self_retrieval", "empty_gold", "gold_outside_corpus", "exclude_covers_gold", "leak",
           "lexical_containment", "too_long", "leak_in_gold", "leak_elsewhere", "answer_in_prompt", "duplicate_docs",
           "twin_gold")
