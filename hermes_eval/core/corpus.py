"""Corpus records."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

_ASCII_BREAKS = ("\r", "\v", "\f", "\x1c", "\x1d", "\x1e")  # what str.splitlines splits on besides \n


@dataclass(frozen=True, slots=True)
class CorpusFile:
    path: str  # unique within the corpus, '/'-separated
    repo: str  # the source it came from: per-repository stratification uses it
    language: str
    text: str

    @property
    def n_lines(self) -> int:
        """``len(text.splitlines())``, without making the lines when newline is the only line break."""
        text = self.text
        if not text.isascii() or any(b in text for b in _ASCII_BREAKS):  # isascii is a flag, not a scan
            return len(text.splitlines())
        return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


@dataclass(frozen=True)
class Corpus:
    name: str
    files: tuple[CorpusFile, ...]
    skipped: dict = field(default_factory=dict)  # reason -> count
    sources: tuple[str, ...] = ()
    fingerprints: dict = field(default_factory=dict)  # downloaded source spec -> "sha256:<hex> <file>"

    @cached_property
    def fingerprint(self) -> str:
        """sha256 over sorted (path, text): changes whenever any indexed byte changes. Computed once per
        corpus (its files are frozen): query-set checks, cache keys and the record all ask for it."""
        h = hashlib.sha256()
        for f in sorted(self.files, key=lambda f: f.path):
            h.update(f.path.encode())
            h.update(b"\0")
            h.update(f.text.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        return h.hexdigest()[:16]

    def by_path(self) -> dict[str, CorpusFile]:
        return {f.path: f for f in self.files}

    def summary(self) -> dict:
        langs: dict[str, int] = {}
        lines: dict[str, int] = {}
        counted: dict[int, int] = {}  # id of a text (all alive here) -> its lines: snapshots share texts
        for f in self.files:
            langs[f.language] = langs.get(f.language, 0) + 1
            n = counted.get(id(f.text))
            if n is None:
                n = counted[id(f.text)] = f.n_lines
            lines[f.language] = lines.get(f.language, 0) + n
        out = {"name": self.name, "sources": list(self.sources), "files": len(self.files),
               "lines": sum(lines.values()), "languages": dict(sorted(langs.items())),
               "lines_by_language": dict(sorted(lines.items())),
               "skipped": dict(sorted(self.skipped.items())), "fingerprint": self.fingerprint}
        if self.fingerprints:
            out["source_fingerprints"] = dict(sorted(self.fingerprints.items()))
        return out
