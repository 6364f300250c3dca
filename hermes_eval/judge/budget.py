"""Recall within a token budget: the chunking-fair way to compare chunkers.

Chunks are taken in rank order until the budget (1k, 2k, 4k tokens) is spent; the chunk that
does not fit whole is cut after its last line that still fits, as a context packer would, so
every chunker hands over the same number of tokens. Overlapping chunks pay for their repeated
lines again (that is the real cost of overlap). Two numbers per budget:

- ``budget_line_coverage@B``: share of gold lines among the lines taken;
- ``budget_recall@B``: share of gold spans with at least one line taken.

Tokens are counted by ``retrievers.chunkers.tokens.count_tokens`` (letter runs, digit runs and
single other characters: cheap, deterministic, no vocabulary, the same for every chunker).
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, repeat
from typing import Mapping, Sequence

import numpy as np

from hermes_eval.judge.percentiles import percentiles
from hermes_eval.judge.relevance import ChunkLookup, gold_lines
from hermes_eval.core import Query
from hermes_eval.core.metrics import BUDGETS
from retrievers.chunk import Chunk
from retrievers.chunkers.tokens import count_tokens
from retrievers.identity.declare import PartId

TOKENIZER = "regex word-pieces: [letters]+ | [digits]+ | one other non-space char"


LINE_MEMO = 200_000  # distinct lines whose counts a packer remembers at once


class BudgetPacker:
    """Takes ranked chunks into a token budget of at most ``max_budget``; per-line token counts are cached
    per chunk text (a file's unchanged version in every snapshot is counted once) and per line, and counted
    only as far as the largest budget can reach."""

    def __init__(self, lookup: ChunkLookup, max_budget: int | None = None):
        self.lookup = lookup
        self.max_budget = max_budget
        self._tokens: dict[str, list[int]] = {}  # chunk text -> each line's count
        self._cumulative: dict[str, list[int]] = {}  # chunk text -> running sums
        self._line: dict[str, int] = {}  # line -> its count (versions of a file share most lines)

    def _count(self, line: str) -> int:
        n = self._line.get(line)
        if n is None:
            if len(self._line) >= LINE_MEMO:  # memory of a window of lines, not of every line of a corpus
                self._line.clear()
            n = self._line[line] = count_tokens(line)
        return n

    def line_tokens(self, cid: str) -> list[int]:
        """Token count of each line of chunk ``cid``."""
        text = self.lookup.by_id[cid].text
        if text not in self._tokens:
            self._tokens[text] = [self._count(line) for line in text.split("\n")]
        return self._tokens[text]

    def cumulative(self, cid: str) -> list[int]:
        """Tokens of chunk ``cid`` up to and including each line; with ``max_budget``, up to the first line
        past it (no budget reaches further, and a whole file's lines are not all counted)."""
        text = self.lookup.by_id[cid].text
        if text not in self._cumulative:
            if self.max_budget is None or text in self._tokens:
                sums = list(accumulate(self.line_tokens(cid)))
            else:
                sums, total = [], 0
                for line in text.split("\n"):
                    total += self._count(line)
                    sums.append(total)
                    if total > self.max_budget:
                        break
            self._cumulative[text] = sums
        return self._cumulative[text]

    def take(self, hits: Sequence[str], budget: int) -> set[tuple[str, int]]:
        """(path, line) pairs handed over when ``hits`` are packed into ``budget`` tokens: whole chunks while
        they fit, then the lines of the next one that still fit."""
        left = budget
        got: set[tuple[str, int]] = set()
        for cid in hits:
            c, cum = self.lookup.by_id[cid], self.cumulative(cid)
            fit = bisect_right(cum, left)  # token counts are never negative: the sums never fall
            got.update(zip(repeat(c.path), range(c.start, c.start + fit)))
            if fit < len(cum):
                return got
            left -= cum[-1]
        return got


def budget_line_coverage(q: Query, taken: set[tuple[str, int]]) -> float:
    """Share of the gold lines of ``q`` among ``taken``."""
    gold = gold_lines(q)
    return len(gold & taken) / len(gold) if gold else 0.0


def budget_recall(q: Query, taken: set[tuple[str, int]]) -> float:
    """Share of the gold spans of ``q`` with at least one line among ``taken``."""
    if not q.gold:
        return 0.0
    hit = sum(any(line in taken for line in g.lines()) for g in q.gold)
    return hit / len(q.gold)


def budget_metrics(queries: Sequence[Query], rankings: Mapping[str, Sequence[str]], lookup: ChunkLookup,
                   budgets: Mapping[str, int] = BUDGETS) -> dict[str, dict[str, float]]:
    """metric name -> qid -> value, for both metrics at every budget."""
    packer = BudgetPacker(lookup, max(budgets.values(), default=0))
    out: dict[str, dict[str, float]] = {}
    for label, budget in budgets.items():
        cov, rec = {}, {}
        for q in queries:
            taken = packer.take(rankings.get(q.qid, []), budget)
            cov[q.qid] = budget_line_coverage(q, taken)
            rec[q.qid] = budget_recall(q, taken)
        out[f"budget_line_coverage@{label}"] = cov
        out[f"budget_recall@{label}"] = rec
    return out


def token_stats(chunks: Sequence[Chunk]) -> dict:
    """Chunk size in tokens: mean, p50, p95, max and total, flat for the run record (:func:`token_counts`)."""
    return token_summary(token_counts(chunks))


def token_counts(chunks: Sequence[Chunk], counted: dict[str, int] | None = None) -> list[int]:
    """Each chunk's size in tokens. A count is the sum of its lines' counts (tokens never span a newline), so
    each distinct text is counted once (``counted``: text -> count, the caller's to keep across calls), and
    the versions of one file across a repository's snapshots (which differ in a few lines) share the count
    of each line: texts are taken file by file, a line memo kept for one file's versions at a time
    (memory of one file, not of every distinct line of every snapshot)."""
    counted = {} if counted is None else counted
    first: dict[str, str] = {}  # distinct text -> the file it is in (first seen), snapshot prefix dropped
    for c in chunks:
        if c.text not in first and c.text not in counted:
            first[c.text] = _unscoped(c.path)
    by_line: dict[str, int] = {}
    current = None
    for text, path in sorted(first.items(), key=lambda kv: kv[1]):
        if path != current:
            by_line.clear()
            current = path
        n = 0
        for line in text.split("\n"):
            got = by_line.get(line)
            if got is None:
                got = by_line[line] = count_tokens(line)
            n += got
        counted[text] = n
    return [counted[c.text] for c in chunks]


def token_summary(counts: Sequence[int]) -> dict:
    """Mean, p50, p95, max and total of chunk token counts (:func:`token_counts`)."""
    sizes = np.asarray(counts if len(counts) else [0], dtype=np.float64)
    p50, p95 = (float(v) for v in percentiles(sizes, [50, 95]))
    return {"tokens_mean": round(float(sizes.mean()), 1), "tokens_p50": p50, "tokens_p95": p95, "tokens_max": int(sizes.max()),
            "tokens_total": int(sizes.sum()), "tokenizer": TOKENIZER}


TOKEN_STATS = PartId("hermes_eval.judge.budget.token_stats", 1)  # bump when the statistics change


@lru_cache(maxsize=1)
def token_stats_key() -> str:
    """:func:`token_stats`'s identity: its declared version, its libraries and the token counts it gives the probe
    files' line chunks."""
    from retrievers.chunkers.base import chunk_files
    from retrievers.chunkers.lines import LineChunker
    from retrievers.identity.key import part_key
    from retrievers.identity.libraries import library_versions
    from retrievers.identity.probe import first_probe_files

    return part_key([TOKEN_STATS], token_counts(chunk_files(LineChunker(), first_probe_files())),
                    library_versions([__name__]))


def _unscoped(path: str) -> str:
    """``path`` without its snapshot prefix (``NAME@COMMIT/``), so a file's versions sort together."""
    head, sep, rest = path.partition("/")
    return rest if sep and "@" in head else path
