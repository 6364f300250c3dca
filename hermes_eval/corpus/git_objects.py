"""A commit's blobs listed from git's objects through long-lived ``git cat-file`` processes, instead of a
``git ls-tree -r --long`` process per snapshot.

The snapshots of one repository share most of their folders: a folder (tree object) is read and parsed once
for every snapshot holding it, and a blob's size is asked once; no process is started per snapshot. What it
lists is exactly what ``git ls-tree -r --long --full-tree COMMIT`` lists (``test_git_objects.py`` holds the
two equal): every blob with its mode, id and size (``MISSING`` for a blob the repository lacks), submodules
left out.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from hermes_eval.core.errors import UserError

TREE, SUBMODULE = b"40000", b"160000"
MISSING = -1  # the size of a blob the repository does not hold (git ls-tree --long prints "-" or BAD)


class ObjectReader:
    """Tree listings and blob sizes of one repository, each object asked once."""

    def __init__(self, repo: Path):
        self.repo = repo
        self._batch: subprocess.Popen | None = None
        self._check: subprocess.Popen | None = None
        self._trees: dict[str, list[tuple[str, bytes, str]]] = {}  # tree id -> its entries (name, mode, id)
        self._sizes: dict[str, int] = {}

    def _start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(["git", "-C", str(self.repo), "cat-file", *args], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _object(self, name: str, commit: str) -> tuple[str, bytes]:
        """(id, content) of the object ``name``; a name git cannot resolve is the caller's bad commit."""
        if self._batch is None:
            self._batch = self._start("--batch")
        self._batch.stdin.write(name.encode() + b"\n")
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) != 3:
            raise UserError(f"git cat-file {commit[:12]} in {self.repo} failed ({name} is "
                            f"{b' '.join(header[1:]).decode() or 'unreadable'}): check the repository and the commit")
        size = int(header[2])
        return header[0].decode(), self._batch.stdout.read(size + 1)[:size]

    def _entries(self, tree_id: str, commit: str, data: bytes | None = None) -> list[tuple[str, bytes, str]]:
        """(name, mode, id) of each entry of one folder, parsed once per tree object (the flattening is
        per snapshot: a folder's recursive listing kept for every changed folder would grow with history)."""
        if tree_id in self._trees:
            return self._trees[tree_id]
        if data is None:
            _, data = self._object(tree_id, commit)
        width = len(tree_id) // 2  # 20 bytes (sha1) or 32 (sha256)
        out: list[tuple[str, bytes, str]] = []
        i = 0
        while i < len(data):
            space = data.index(b" ", i)
            nul = data.index(b"\0", space)
            out.append((data[space + 1:nul].decode("utf-8", "surrogateescape"), data[i:space],
                        data[nul + 1:nul + 1 + width].hex()))
            i = nul + 1 + width
        self._trees[tree_id] = out
        return out

    def size(self, blob_id: str) -> int:
        """The blob's size in bytes, ``MISSING`` when the repository lacks it."""
        if blob_id not in self._sizes:
            if self._check is None:
                self._check = self._start("--batch-check")
            self._check.stdin.write(blob_id.encode() + b"\n")
            self._check.stdin.flush()
            parts = self._check.stdout.readline().split()
            self._sizes[blob_id] = int(parts[2]) if len(parts) == 3 else MISSING
        return self._sizes[blob_id]

    def blobs(self, commit: str) -> list[tuple[str, str, str, int]]:
        """(path, mode, blob id, size) of every blob of ``commit``'s tree, sorted by path."""
        root, data = self._object(f"{commit}^{{tree}}", commit)
        out: list[tuple[str, str, str, int]] = []
        todo = [("", root, data)]
        while todo:
            prefix, tree_id, content = todo.pop()
            for name, mode, oid in self._entries(tree_id, commit, content):
                if mode == TREE:
                    todo.append((f"{prefix}{name}/", oid, None))
                elif mode != SUBMODULE:
                    out.append((prefix + name, mode.decode(), oid, self.size(oid)))
        return sorted(out)

    def close(self) -> None:
        for proc in (self._batch, self._check):
            if proc is not None:
                proc.stdin.close()
                proc.wait()
        self._batch = self._check = None
