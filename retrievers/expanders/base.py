"""The query-expander protocol: a query in, alternative phrasings out. The pipeline searches the
original and each alternative and fuses their lists (``<leg>@q0`` is the original)."""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Expander(Protocol):
    """``expand(query)``: distinct alternatives, never the query itself; ``[]`` when it has none or
    failed (a failure is counted in ``stats``, and the original query is still searched)."""

    stats: dict

    def expand(self, query: str) -> list[str]: ...
