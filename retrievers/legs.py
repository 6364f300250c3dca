"""Which legs of a retriever run, and whether the pipeline needs an embedder: decided here only."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from retrievers.fusion.base import Fusion


def active_legs(legs: Mapping[str, Any], fusion: "Fusion") -> list[str]:
    """Names of the configured legs that run: present and with a non-zero fusion weight."""
    return [name for name, leg in legs.items() if leg is not None and fusion.weight(name) != 0]


def needs_embedder(indexes: Iterable[Any], reranker: Any = None) -> bool:
    """True when a running leg searches vectors or the reranker embeds."""
    return (any(ix.input == "vector" for ix in indexes)
            or (reranker is not None and bool(reranker.needs_embedder)))
