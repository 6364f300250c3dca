"""One chunker per language, with a fallback: the routing table is configuration."""
from __future__ import annotations

from dataclasses import dataclass, field

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker
from retrievers.chunkers.heuristic import HeuristicChunker
from retrievers.identity.declare import declare


@declare("retrievers.chunkers.dispatch.Route")
@dataclass(frozen=True)
class Route:
    """Send files of ``languages`` to ``chunker``."""

    languages: tuple[str, ...]
    chunker: Chunker


@declare("retrievers.chunkers.dispatch.LanguageDispatcher")
@dataclass(frozen=True)
class LanguageDispatcher(Chunker):
    """Chunk each file with the first route naming its language, else with ``fallback``."""

    routes: tuple[Route, ...] = ()
    fallback: Chunker = field(default_factory=HeuristicChunker)

    def __post_init__(self) -> None:
        table: dict[str, Chunker] = {}
        for route in self.routes:
            for lang in route.languages:
                table.setdefault(lang, route.chunker)
        object.__setattr__(self, "routes", tuple(self.routes))
        object.__setattr__(self, "_table", table)

    def chunker_for(self, language: str) -> Chunker:
        """The chunker that handles ``language``."""
        return self._table.get(language, self.fallback)

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        return self.chunker_for(language).chunk(path, text, language)
