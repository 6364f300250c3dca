"""Leaderboard settings: which metric ranks, which arm is the baseline, which test marks a win."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Mapping

import numpy as np

from hermes_eval.judge.significance import DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, DEFAULT_STAT_TEST

# When chunkers differ within a query set only these compare fairly (file level, line coverage,
# equal token budget). The first one present in the records ranks the board.
FAIR_METRICS = ("budget_line_coverage@2k", "file_recall@10", "file_ndcg@10", "line_coverage@10")
# With one chunker every metric is fair; the first present ranks the board.
SAME_CHUNKER_METRICS = ("ndcg@10", "recall@10", "file_recall@10")
# Columns shown (when present), each with its CI and a significance mark.
QUALITY = ("recall@10", "ndcg@10", "mrr@10", "file_recall@10", "line_coverage@10",
           "budget_line_coverage@2k")
# Recall@k curves are drawn at these depths.
RECALL_KS = (1, 2, 3, 5, 10, 20, 50, 100)
# Stages drawn in the latency CDFs, in pipeline order (others follow alphabetically).
STAGE_ORDER = ("embed", "sparse", "dense", "fuse", "rerank", "total")
# The markdown board keeps this many rows so it pastes into a pull request.
MARKDOWN_TOP_ROWS = 10
# Per-query differences shown per board (largest wins and losses of the top arm), each query's text cut
# to this many characters (the explorer shows it in full).
NOTABLE_QUERIES = 5
NOTABLE_QUERY_CHARS = 300
BASELINE_HELP = ("baseline arm per query set: a config-hash prefix, run directory name, system label "
                 "(e.g. rank_bm25) or chunker/system (e.g. lines/rank_bm25). Default: the best BM25-only "
                 "arm (sparse leg alone); without one, the lowest-ranked row.")


# The per-query explorer of the HTML board: results shown per arm and query, how much of a query's
# text is kept (longer ones lose their middle), and gold code shown per span (lines, characters).
EXPLORER_TOP = 10
EXPLORER_QUERY_CHARS = 3000
EXPLORER_CODE_LINES = 40
EXPLORER_CODE_CHARS = 3000
# Gold code is read from the run's corpus; larger corpora (many snapshots) are not opened for it.
EXPLORER_CODE_MAX_FILES = 20000
# Result ids a board keeps per query above the judged positions (report/board_run.py): no board figure
# reads an unjudged id deeper (the explorer's EXPLORER_TOP, the miss table's k).
KEEP_TOP = 10
# Per-query latencies are measured in nanoseconds: six decimal digits of a millisecond.
LATENCY_DIGITS = 6


@dataclass(frozen=True)
class BoardLimits:
    """How much of each query's text (longer ones lose their middle) and of each gold span's code (lines,
    characters) a board keeps: these constants, or less where its records ask for it (``board_limits:`` in
    conf/benchmarks/NAME.yaml, the smallest any record of the board gives), so that a board of many sets
    stays small in the repository. Its results remember them (board.json); a rebuild with others is refused."""

    query_chars: int = EXPLORER_QUERY_CHARS
    code_lines: int = EXPLORER_CODE_LINES
    code_chars: int = EXPLORER_CODE_CHARS
    # decimal digits of a millisecond kept of each per-query latency: 6 (or more), every nanosecond measured;
    # 3, microseconds, which the latency CDFs cannot tell apart and the results store in half the bytes
    latency_digits: int = LATENCY_DIGITS

    @property
    def kept_digits(self) -> int:
        """The digits of a millisecond the latencies really keep (no more than were measured)."""
        return min(self.latency_digits, LATENCY_DIGITS)

    def latency(self, ms: np.ndarray) -> np.ndarray:
        """Per-query milliseconds as this board keeps them (rounded to ``latency_digits``)."""
        return ms if self.kept_digits == LATENCY_DIGITS else np.round(ms, self.kept_digits)

    @classmethod
    def of(cls, given: Mapping[str, int]) -> "BoardLimits":
        """The defaults, but the ``given`` ones (named as :func:`limit_names`)."""
        return cls(**{k: int(v) for k, v in given.items()})

    def stored(self) -> dict[str, int]:
        """The limits as board.json keeps them (latency digits only where fewer than measured: results
        written before the field existed keep their bytes)."""
        out = asdict(self)
        if self.kept_digits == LATENCY_DIGITS:
            del out["latency_digits"]
        return out


def limit_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(BoardLimits))


@dataclass(frozen=True)
class ReportSettings:
    """Choices a reader may change from the command line."""

    baseline: str | None = None
    stat_test: str = DEFAULT_STAT_TEST
    alpha: float = DEFAULT_ALPHA
    n_permutations: int = DEFAULT_PERMUTATIONS
    seed: int = 0
    columns: tuple[str, ...] = ()  # metric columns shown after QUALITY (when present)
    anchors: tuple = ()  # published numbers set beside ours (report/anchors.py)
    main_scores: tuple[tuple[str, str], ...] = ()  # (query set, metric ranking its table): records' main_score
    # (query set, the measures its markdown table shows): its record's main score, field measures and columns;
    # a set none names shows every quality column (the HTML page and results/ keep them all)
    shown: tuple[tuple[str, tuple[str, ...]], ...] = ()
    limits: BoardLimits = BoardLimits()  # what the board keeps of query text and gold code


def first_present(preference: tuple[str, ...], columns) -> str:
    """The first metric of ``preference`` that the records carry (else the first listed)."""
    cols = set(columns)
    return next((m for m in preference if m in cols), preference[0])
