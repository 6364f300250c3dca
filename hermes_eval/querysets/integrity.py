"""Query-set errors that would silently corrupt scores, raised before a run searches anything."""
from __future__ import annotations

from hermes_eval.core import Corpus, QuerySet, UserError


def validate_qids(qs: QuerySet, source: str) -> None:
    """Duplicate qids: an error naming both places."""
    seen: dict[str, int] = {}
    for i, q in enumerate(qs.queries, start=1):
        if q.qid in seen:
            raise UserError(f"{source}: qid {q.qid!r} appears at queries {seen[q.qid]} and {i}: qids must be unique")
        seen[q.qid] = i


def validate_queries(qs: QuerySet, corpus: Corpus, source: str) -> None:
    """Query-set errors that would silently corrupt scores: duplicate qids, gold off the corpus."""
    validate_qids(qs, source)
    files = corpus.by_path()
    lines: dict[str, int] = {}  # counted for gold files only (a snapshot set holds 100k+ files)
    for q in qs.queries:
        for g in q.gold:
            if g.path not in files:
                raise UserError(f"{source}: query {q.qid!r} has gold path {g.path!r}, which is not in corpus "
                                f"{corpus.name!r}: fix the path or point corpus.sources at the right tree")
            if g.path not in lines:
                lines[g.path] = files[g.path].n_lines
            # an empty file's whole-file gold is 1-1 (the importers' Span(path, 1, max(n_lines, 1))): kept,
            # so it counts as an answer no chunk can reach, as Bench4BL's AP denominator counts it
            if g.end > max(lines[g.path], 1):
                raise UserError(f"{source}: query {q.qid!r} has gold {g.path}:{g.start}-{g.end} but the file has "
                                f"{lines[g.path]} lines: the query set was made for another version of the code")
