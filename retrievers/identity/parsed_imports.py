"""The import statements of a source file, parsed once per content and kept on disk between processes.

A part's key follows the libraries its modules import (``libraries.py``), which parses every module it
reaches: some 30 files and 30 ms of every run's start. The statements depend on the file's bytes alone, so
they are stored by the bytes' sha256 (what resolving them against the installed modules gives is still
worked out in each process). The file lives beside the interpreter's environment (``sys.prefix``) like the
distributions map; where it cannot be written, statements are parsed in each process, as before.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from pathlib import Path

CACHE_NAME = ".hermes-eval-imports.json"
FORMAT = 1
KEEP = 4096  # files remembered; the oldest half goes when there are more

# ("import", name) for each name of ``import a.b``; ("from", level, module or "", names) for ``from`` imports
Statement = tuple


def cache_file() -> Path:
    return Path(sys.prefix) / CACHE_NAME


def parse(source: bytes) -> list[Statement]:
    """Every import statement of ``source``, anywhere in it (functions included), in ``ast.walk`` order."""
    out: list[Statement] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend(("import", alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append(("from", node.level, node.module or "", tuple(a.name for a in node.names)))
    return out


class Store:
    """Statements by content digest, read from ``path`` once and written back by :meth:`flush`."""

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else cache_file()
        self._entries: dict[str, list] | None = None
        self._new = False

    def _load(self) -> dict[str, list]:
        if self._entries is None:
            try:
                data = json.loads(self.path.read_text())
                entries = data["entries"] if data.get("format") == FORMAT else {}
                self._entries = entries if isinstance(entries, dict) else {}
            except (OSError, ValueError, TypeError, KeyError, AttributeError):
                self._entries = {}
        return self._entries

    def statements(self, source: bytes, digest: str | None = None) -> list[Statement]:
        """The import statements of ``source`` (``digest``: its sha256 hex, when the caller has it)."""
        digest = digest or hashlib.sha256(source).hexdigest()
        entries = self._load()
        got = entries.get(digest)
        if not isinstance(got, list):
            got = entries[digest] = [list(s) for s in parse(source)]
            self._new = True
        return [("import", s[1]) if s[0] == "import" else ("from", s[1], s[2], tuple(s[3])) for s in got]

    def flush(self) -> None:
        """Write the entries parsed since the last flush (the newest :data:`KEEP` kept)."""
        if not self._new:
            return
        entries = self._load()
        if len(entries) > KEEP:
            entries = dict(list(entries.items())[len(entries) - KEEP // 2:])
            self._entries = entries
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"format": FORMAT, "entries": entries}))
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)
        self._new = False
