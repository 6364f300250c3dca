"""Wrap any index with a fixed per-query delay: emulates a remote or slower backend
(what-if latency analysis) and lets the regression gate prove it catches a slowdown."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from retrievers.index import Hit, Index


@dataclass
class DelayedIndex:
    inner: Index
    delay_ms: float = 0.0

    @property
    def input(self) -> str:
        return self.inner.input

    def build(self, ids: Sequence[str], docs) -> None:
        self.inner.build(ids, docs)

    def search(self, queries, k: int) -> list[list[Hit]]:
        time.sleep(self.delay_ms / 1000.0 * len(queries))
        return self.inner.search(queries, k)

    def save(self, path: Path) -> None:
        self.inner.save(path)

    def load(self, path: Path) -> None:
        self.inner.load(path)
