"""How a file's score comes from its chunks' scores: the file-level rankings file_* metrics judge.

- ``max`` (the default, every committed record): files in the order of their best chunk, which is the
  order of their first chunk in the ranking (:func:`hermes_eval.judge.relevance.file_ranking`);
- ``first``: a file is scored by its first chunk alone (the chunk of the chunking that starts first in
  it), as one embedding of a whole file sees only its first window; a file whose first chunk was not
  retrieved is not ranked;
- ``sum_top_k``: the sum of the raw scores of the file's ``k`` best retrieved chunks (a file with fewer
  retrieved chunks sums those it has).

Ties keep the order of each file's first chunk in the ranking. Chosen per run with the config group
``file_score`` (``+file_score=sum_top_k``, conf/file_score/); absent means ``max`` and leaves the config
hash of every existing run unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from hermes_eval.judge.relevance import file_ranking
from retrievers.chunk import chunk_path

HOWS = ("max", "first", "sum_top_k")


@dataclass(frozen=True)
class FileScore:
    """One way to score files from chunks (see the module doc)."""

    how: str = "max"
    k: int = 3

    def __post_init__(self) -> None:
        if self.how not in HOWS:
            raise ValueError(f"file_score.how must be one of {HOWS}, got {self.how!r}")
        if self.k < 1:
            raise ValueError(f"file_score.k must be >= 1, got {self.k}")

    @property
    def is_default(self) -> bool:
        return self.how == "max"

    def ranking(self, hits: Sequence[str], scores: Sequence[float], first_chunk: Callable[[str], str | None]
                ) -> list[str]:
        """Files of one query's ranked chunk ids ``hits`` (raw ``scores`` beside them, best first).
        ``first_chunk``: a path -> the id of the file's first chunk (read by ``first`` only)."""
        files = file_ranking(hits)
        if self.how == "max":
            return files
        order = {path: i for i, path in enumerate(files)}
        if len(scores) != len(hits):
            raise ValueError(f"file_score {self.how}: {len(hits)} chunks but {len(scores)} raw scores")
        total: dict[str, float] = {}
        if self.how == "first":
            for cid, score in zip(hits, scores):
                path = chunk_path(cid)
                if first_chunk(path) == cid:
                    total[path] = float(score)
        else:
            taken: dict[str, int] = {}
            for cid, score in zip(hits, scores):
                path = chunk_path(cid)
                if taken.get(path, 0) < self.k:
                    taken[path] = taken.get(path, 0) + 1
                    total[path] = total.get(path, 0.0) + float(score)
        return sorted(total, key=lambda p: (-total[p], order[p]))

    def rankings(self, rankings: Mapping[str, Sequence[str]], raw_scores: Mapping[str, Sequence[float]],
                 first_chunk: Callable[[str], str | None]) -> dict[str, list[str]]:
        """:meth:`ranking` of every query."""
        return {qid: self.ranking(hits, raw_scores.get(qid, ()), first_chunk) for qid, hits in rankings.items()}

