"""Gold spans -> relevance for a given chunking, at chunk, file, module and line level."""
from __future__ import annotations

import re
from bisect import bisect_right
from operator import attrgetter
from typing import Mapping, Sequence

from retrievers.chunk import Chunk, chunk_path

from hermes_eval.core import Query, Span

# A relevant document no run ever returns, judged for a query that has nothing judgeable at a
# level (every gold chunk also overlaps its exclude span, or no gold at all). The query then
# scores 0 in ranx, trec_eval, pytrec_eval and ir_measures alike, instead of being dropped by
# the external tools while the record counts it.
UNANSWERABLE = "hermes-eval:unanswerable"
# The one document standing for an empty ranking, never relevant: written to run.trec for such a
# query, so tools that only score queries present in the run (trec_eval without -c, pytrec_eval)
# keep it; ranx, handed it in place of an empty ranking, scores it 0 like an empty one.
NO_RESULTS = "hermes-eval:no-results"


class ChunkLookup:
    """Find the chunks of a chunking that overlap a span."""

    def __init__(self, chunks: Sequence[Chunk]):
        self.by_id = {c.id: c for c in chunks}
        by_path: dict[str, list[Chunk]] = {}
        for c in sorted(chunks, key=attrgetter("path", "start", "end")):
            by_path.setdefault(c.path, []).append(c)
        # per path one entry (longest chunk, starts, chunks), tuples: a set over many snapshots has
        # millions of paths, most with one or a few chunks
        self._by_path: dict[str, tuple[int, tuple[int, ...], tuple[Chunk, ...]]] = {
            p: (max(c.n_lines for c in cs), tuple(c.start for c in cs), tuple(cs)) for p, cs in by_path.items()}

    def first_chunk(self, path: str) -> str | None:
        """The id of the chunk of ``path`` that starts first (None when the chunking has none there)."""
        found = self._by_path.get(path)
        return found[2][0].id if found else None

    def overlapping(self, span: Span) -> list[Chunk]:
        found = self._by_path.get(span.path)
        if not found:
            return []
        max_len, starts, cs = found
        lo = bisect_right(starts, span.start - max_len)
        hi = bisect_right(starts, span.end)
        return [c for c in cs[lo:hi] if c.start <= span.end and span.start <= c.end]


def overlaps_any(chunk: Chunk, spans: Sequence[Span]) -> bool:
    return any(s.overlaps(chunk.path, chunk.start, chunk.end) for s in spans)


def chunk_qrels(queries: Sequence[Query], lookup: ChunkLookup) -> dict[str, dict[str, int]]:
    """qid -> {chunk id: grade} for chunks overlapping a gold span and no exclude span (the
    highest grade of the gold spans a chunk overlaps; 1 unless the query set is graded)."""
    out: dict[str, dict[str, int]] = {}
    for q in queries:
        rel: dict[str, int] = {}
        for g in q.gold:
            for c in lookup.overlapping(g):
                if not overlaps_any(c, q.exclude):
                    rel[c.id] = max(rel.get(c.id, 0), g.grade)
        out[q.qid] = rel
    return out


def file_qrels(queries: Sequence[Query]) -> dict[str, dict[str, int]]:
    """qid -> {path: highest grade of its gold spans there}."""
    out: dict[str, dict[str, int]] = {}
    for q in queries:
        rel = out.setdefault(q.qid, {})
        for g in q.gold:
            rel[g.path] = max(rel.get(g.path, 0), g.grade)
    return out


def line_id(path: str, line: int) -> str:
    """A line's document id in line-level qrels: ``path:line``."""
    return f"{path}:{line}"


def line_qrels(queries: Sequence[Query]) -> dict[str, dict[str, int]]:
    """qid -> {``path:line``: 1} for every gold line (what line coverage counts)."""
    return {q.qid: {line_id(p, n): 1 for p, n in sorted(gold_lines(q))} for q in queries}


def unanswerable(qrels: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Queries with no relevant document at this level, in qid order."""
    return sorted(q for q, rel in qrels.items() if not any(v > 0 for v in rel.values()))


def with_sentinel(qrels: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """``qrels`` with :data:`UNANSWERABLE` judged relevant for every query that has nothing
    relevant, so every query is scored (0) by any tool that reads the qrels."""
    return {q: (dict(rel) if any(v > 0 for v in rel.values()) else dict(rel, **{UNANSWERABLE: 1}))
            for q, rel in qrels.items()}


def file_ranking(hits: Sequence[str]) -> list[str]:
    """Files in the order of their first chunk in ``hits`` (chunk ids ``path:start-end``)."""
    return list(dict.fromkeys(chunk_path(cid) for cid in hits))


def file_rankings(rankings: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """:func:`file_ranking` of every query's ranking."""
    return {qid: file_ranking(hits) for qid, hits in rankings.items()}


_TOP = re.compile(r"[/.]")  # separates a symbol's outer definition from what it holds


def module_of(chunk: Chunk) -> str:
    """LocAgent's module of a chunk: its file and the top-level definition holding it (``path:Outer`` for
    the symbol ``Outer/inner`` or ``Outer.inner``); a chunk without a symbol is its own module (its id)."""
    if not chunk.symbol:
        return chunk.id
    return f"{chunk.path}:{_TOP.split(chunk.symbol, maxsplit=1)[0]}"


def module_qrels(chunk_qrels: Mapping[str, Mapping[str, int]], lookup: ChunkLookup) -> dict[str, dict[str, int]]:
    """qid -> {module: highest grade of its relevant chunks} (the modules holding the gold chunks)."""
    out: dict[str, dict[str, int]] = {}
    for qid, rel in chunk_qrels.items():
        mods = out.setdefault(qid, {})
        for cid, grade in rel.items():
            c = lookup.by_id.get(cid)
            if c is not None and grade > 0:
                m = module_of(c)
                mods[m] = max(mods.get(m, 0), grade)
    return out


def module_rankings(rankings: Mapping[str, Sequence[str]], lookup: ChunkLookup) -> dict[str, list[str]]:
    """Each query's modules in the order of their first chunk (a chunk the lookup lacks is its own)."""
    def of(cid: str) -> str:
        c = lookup.by_id.get(cid)
        return module_of(c) if c is not None else cid

    return {qid: list(dict.fromkeys(of(cid) for cid in hits)) for qid, hits in rankings.items()}


def gold_lines(q: Query) -> set[tuple[str, int]]:
    return {line for g in q.gold for line in g.lines()}


def line_coverage(q: Query, hits: Sequence[str], lookup: ChunkLookup, k: int) -> float:
    """Share of gold lines inside the top-k chunks."""
    gold = gold_lines(q)
    if not gold:
        return 0.0
    by_path: dict[str, list[int]] = {}
    for path, n in gold:
        by_path.setdefault(path, []).append(n)
    got: set[tuple[str, int]] = set()  # the gold lines a top-k chunk holds (not every line it holds)
    for cid in hits[:k]:
        c = lookup.by_id[cid]
        lines = by_path.get(c.path)
        if lines:
            got.update((c.path, n) for n in lines if c.start <= n <= c.end)
    return len(got) / len(gold)
