"""Hygiene checks run before every evaluation; their result goes into the run record.

Gold text is read from the corpus as it will be indexed (masks applied), without the lines a
query excludes. ``self_retrieval``: the whole normalized query occurs verbatim in a gold span.
That is too strict for long left-context queries, so ``leak`` also counts a long overlap:
``leak_lines`` consecutive query lines, or a ``leak_chars``-character run, found in gold text.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from hermes_eval.core.corpus import Corpus
from hermes_eval.judge.leaks import (TokenCounter, approx_tokens, lexically_contained, normalize,
                                         shares_lines, shares_run, token_counter)
from hermes_eval.core.queryset import QuerySet
from hermes_eval.core import Query

__all__ = ["Hygiene", "check", "normalize", "token_counter"]


@dataclass(frozen=True)
class Hygiene:
    queries: int
    self_retrieval: int  # query text (normalized) found verbatim inside a gold span's text
    empty_gold: int
    gold_outside_corpus: int
    duplicate_qids: int
    exclude_covers_gold: int
    leak: int = 0  # self_retrieval, or a long run of query lines/characters found in gold text
    lexical_containment: int = 0  # every content word of the query occurs in its gold text
    too_long: int = 0  # queries longer than the embedder's max sequence (they get truncated)
    max_seq_tokens: int | None = None
    token_counter: str = "approx"

    @property
    def self_retrieval_share(self) -> float:
        return self.self_retrieval / self.queries if self.queries else 0.0

    @property
    def leak_share(self) -> float:
        return self.leak / self.queries if self.queries else 0.0

    def to_dict(self) -> dict:
        n = self.queries or 1
        return dict(asdict(self), self_retrieval_share=round(self.self_retrieval_share, 6),
                    leak_share=round(self.leak_share, 6),
                    lexical_containment_share=round(self.lexical_containment / n, 6),
                    too_long_share=round(self.too_long / n, 6))


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


def check(qs: QuerySet, corpus: Corpus, max_seq_tokens: int | None = None,
          count_tokens: TokenCounter | None = None, token_counter_name: str | None = None,
          leak_lines: int = 5, leak_line_chars: int = 60, leak_chars: int = 200) -> Hygiene:
    """Count each problem over ``qs`` against the (masked) ``corpus`` that will be indexed."""
    files = corpus.by_path()
    lines_of = {p: f.text.split("\n") for p, f in files.items()}
    counter = count_tokens or approx_tokens
    dup = sum(n - 1 for n in Counter(q.qid for q in qs.queries).values() if n > 1)
    c = Counter()
    for q in qs.queries:
        if not q.gold:
            c["empty"] += 1
        if any(g.path not in files or g.end > len(lines_of[g.path]) for g in q.gold):
            c["outside"] += 1
        texts = gold_texts(q, lines_of)
        norm = normalize(q.query)
        verbatim = bool(norm) and any(norm in normalize(t) for t in texts)
        c["self"] += verbatim
        c["leak"] += verbatim or any(shares_lines(q.query, t, leak_lines, leak_line_chars)
                                     or shares_run(q.query, t, leak_chars) for t in texts)
        c["lexical"] += lexically_contained(q.query, "\n".join(texts))
        if max_seq_tokens and counter(q.query) > max_seq_tokens:
            c["long"] += 1
        if q.gold and all(any(e.path == g.path and e.start <= g.start and g.end <= e.end
                              for e in q.exclude) for g in q.gold):
            c["covered"] += 1
    name = token_counter_name or ("approx" if count_tokens is None else "custom")
    return Hygiene(queries=len(qs.queries), self_retrieval=c["self"], empty_gold=c["empty"],
                   gold_outside_corpus=c["outside"], duplicate_qids=dup, exclude_covers_gold=c["covered"],
                   leak=c["leak"], lexical_containment=c["lexical"], too_long=c["long"],
                   max_seq_tokens=max_seq_tokens, token_counter=name)
