"""Chunks a black-box search service returns that the run's own chunking lacks, cut from the
indexed corpus by their ``path:start-end`` id so they are judged by span overlap like any other."""
from __future__ import annotations

from typing import Iterable, MutableMapping

from hermes_eval.core.corpus import CorpusFile
from hermes_eval.core.errors import UserError
from retrievers.chunk import Chunk, parse_chunk_id


class ForeignChunks:
    """Adds unknown hit ids to a chunk-by-id map; ``ids`` lists what was added, in order."""

    def __init__(self, files: Iterable[CorpusFile]):
        self._files = {f.path: f for f in files}
        self._lines: dict[str, list[str]] = {}
        self.ids: list[str] = []

    def add(self, hits: Iterable[tuple[str, float]], by_id: MutableMapping[str, Chunk]) -> None:
        for cid, _ in hits:
            if cid not in by_id:
                by_id[cid] = self.chunk(cid)
                self.ids.append(cid)

    def chunk(self, cid: str) -> Chunk:
        """The chunk ``cid`` names; its text is empty when the path is not in the corpus."""
        parsed = parse_chunk_id(cid)
        if parsed is None or not 1 <= parsed[1] <= parsed[2]:
            raise UserError(f"the search service returned {cid!r}, not a path:start-end span with "
                            f"1 <= start <= end: check retriever.service.response (first_line, fields)")
        path, start, end = parsed
        f = self._files.get(path)
        if f is None:
            return Chunk(path, start, end, "")
        lines = self._lines.setdefault(path, f.text.split("\n"))
        return Chunk(path, start, end, "\n".join(lines[start - 1:end]), f.language)
