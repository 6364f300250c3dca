"""What the search stage hands on: rankings, raw scores and per-stage latency samples."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Measured:
    rankings: dict[str, list[str]] = field(default_factory=dict)  # qid -> chunk ids, best first
    raw_scores: dict[str, list[float]] = field(default_factory=dict)
    stage_ns: dict[str, list[int]] = field(default_factory=dict)  # stage -> one sample per query
    total_ns: list[int] = field(default_factory=list)
    warmup: int = 0
