"""Hygiene checks run before every evaluation; their result goes into the run record."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass

from hermes_eval.corpus.model import Corpus
from hermes_eval.querysets.model import QuerySet

_WS = re.compile(r"\s+")


def normalize(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


@dataclass(frozen=True)
class Hygiene:
    queries: int
    self_retrieval: int  # query text (normalized) found verbatim inside a gold span's text
    empty_gold: int
    gold_outside_corpus: int
    duplicate_qids: int
    exclude_covers_gold: int

    @property
    def self_retrieval_share(self) -> float:
        return self.self_retrieval / self.queries if self.queries else 0.0

    def to_dict(self) -> dict:
        return dict(asdict(self), self_retrieval_share=round(self.self_retrieval_share, 6))


def check(qs: QuerySet, corpus: Corpus) -> Hygiene:
    """Count each problem over ``qs`` against the (masked) ``corpus`` that will be indexed."""
    files = corpus.by_path()
    lines_of = {p: f.text.split("\n") for p, f in files.items()}
    dup = sum(n - 1 for n in Counter(q.qid for q in qs.queries).values() if n > 1)
    self_ret = empty = outside = covered = 0
    for q in qs.queries:
        if not q.gold:
            empty += 1
        if any(g.path not in files or g.end > len(lines_of[g.path]) for g in q.gold):
            outside += 1
        norm = normalize(q.query)
        if norm and any(norm in normalize("\n".join(lines_of[g.path][g.start - 1:g.end]))
                        for g in q.gold if g.path in lines_of):
            self_ret += 1
        if q.gold and all(any(e.path == g.path and e.start <= g.start and g.end <= e.end
                              for e in q.exclude) for g in q.gold):
            covered += 1
    return Hygiene(queries=len(qs.queries), self_retrieval=self_ret, empty_gold=empty,
                   gold_outside_corpus=outside, duplicate_qids=dup, exclude_covers_gold=covered)
