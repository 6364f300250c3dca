"""A run's declared file score (config group ``file_score``, hermes_eval/judge/file_score.py) applied to
its searched rankings: the file rankings the judge scores file_* metrics on, or None for the default
(files by their best chunk, as every record without a ``file_score`` node)."""
from __future__ import annotations

from typing import Any

from hermes_eval.config.parts import instantiate_part
from hermes_eval.config.settings import RunSettings
from hermes_eval.core import UserError
from hermes_eval.core.measured import Measured
from hermes_eval.judge.file_score import FileScore
from hermes_eval.judge.relevance import ChunkLookup


def file_score_of(s: RunSettings) -> FileScore | None:
    """The run's :class:`FileScore`; None when its config has none or it is ``max``."""
    node: Any = (s.config or {}).get("file_score")
    if not node:
        return None
    made = instantiate_part(node)
    if not isinstance(made, FileScore):
        raise UserError(f"file_score: _target_ must build a {FileScore.__module__}.FileScore, got {type(made).__name__}")
    return None if made.is_default else made


def declared_files(s: RunSettings, measured: Measured, lookup: ChunkLookup) -> dict[str, list[str]] | None:
    """Each query's files as the run's file score ranks them from ``measured``'s chunks and raw scores."""
    how = file_score_of(s)
    if how is None:
        return None
    return how.rankings(measured.rankings, measured.raw_scores, lookup.first_chunk)
