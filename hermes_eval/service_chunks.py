"""Chunks a black-box search service returns that the run's own chunking lacks, cut from the
indexed corpus by their ``path:start-end`` id so they are judged by span overlap like any other."""
from __future__ import annotations

import re
from typing import Iterable, MutableMapping

from hermes_eval.corpus.model import CorpusFile
from hermes_eval.errors import UserError
from retrievers.chunk import Chunk

_ID = re.compile(r"^(?P<path>.+):(?P<start>\d+)-(?P<end>\d+)$")


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
        m = _ID.match(cid)
        if not m or not 1 <= int(m["start"]) <= int(m["end"]):
            raise UserError(f"the search service returned {cid!r}, not a path:start-end span with "
                            f"1 <= start <= end: check retriever.service.response (first_line, fields)")
        path, start, end = m["path"], int(m["start"]), int(m["end"])
        f = self._files.get(path)
        if f is None:
            return Chunk(path, start, end, "")
        lines = self._lines.setdefault(path, f.text.split("\n"))
        return Chunk(path, start, end, "\n".join(lines[start - 1:end]), f.language)
