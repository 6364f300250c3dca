"""A commit's blobs listed from git's objects through long-lived ``git cat-file`` processes, instead of a
``git ls-tree -r --long`` process per snapshot.

The snapshots of one repository share most of their folders: a folder (tree object) is read and parsed once
for every snapshot holding it, and a blob's size is asked once; no process is started per snapshot, and a
snapshot's new folders (per depth) and sizes are asked in a round trip each (``git_batch.py``). What it
lists is exactly what ``git ls-tree -r --long --full-tree COMMIT`` lists (``test_git_objects.py`` holds the
two equal): every blob with its mode, id and size (``MISSING`` for a blob the repository lacks), submodules
left out.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.git_batch import ask

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

    def _objects(self, names: list[str], commit: str) -> list[tuple[str, bytes]]:
        """(id, content) of each object ``names`` names, asked in one round trip; a name git cannot resolve
        is the caller's bad commit."""
        if self._batch is None:
            self._batch = self._start("--batch")
        out = []
        for name, (header, data) in zip(names, ask(self._batch, names, content=True)):
            if data is None:
                what = b" ".join(header[1:]).decode() or "unreadable"
                raise UserError(f"git cat-file {commit[:12]} in {self.repo} failed ({name} is {what}): "
                                "check the repository and the commit")
            out.append((header[0].decode(), data))
        return out

    def _entries(self, tree_id: str, commit: str, data: bytes | None = None) -> list[tuple[str, bytes, str]]:
        """(name, mode, id) of each entry of one folder, parsed once per tree object (the flattening is
        per snapshot: a folder's recursive listing kept for every changed folder would grow with history)."""
        if tree_id in self._trees:
            return self._trees[tree_id]
        if data is None:
            [(_, data)] = self._objects([tree_id], commit)
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

    def _ask_sizes(self, blob_ids: list[str]) -> None:
        """Every size not yet known, asked in one round trip."""
        todo = list(dict.fromkeys(b for b in blob_ids if b not in self._sizes))
        if not todo:
            return
        if self._check is None:
            self._check = self._start("--batch-check")
        for oid, (parts, _) in zip(todo, ask(self._check, todo, content=False)):
            self._sizes[oid] = int(parts[2]) if len(parts) == 3 else MISSING

    def _ask_trees(self, tree_ids: list[str], commit: str) -> None:
        """Every folder not yet parsed, read in one round trip."""
        todo = list(dict.fromkeys(t for t in tree_ids if t not in self._trees))
        for oid, data in self._objects(todo, commit) if todo else ():
            self._entries(oid, commit, data)

    def blobs(self, commit: str) -> list[tuple[str, str, str, int]]:
        """(path, mode, blob id, size) of every blob of ``commit``'s tree, sorted by path: the new folders
        of one depth, then the sizes of all new blobs, each asked in one round trip."""
        [(root, data)] = self._objects([f"{commit}^{{tree}}"], commit)
        self._entries(root, commit, data)
        found: list[tuple[str, str, str]] = []
        level = [("", root)]
        while level:
            self._ask_trees([tree_id for _, tree_id in level], commit)
            deeper = []
            for prefix, tree_id in level:
                for name, mode, oid in self._trees[tree_id]:
                    if mode == TREE:
                        deeper.append((f"{prefix}{name}/", oid))
                    elif mode != SUBMODULE:
                        found.append((prefix + name, mode.decode(), oid))
            level = deeper
        self._ask_sizes([oid for _, _, oid in found])
        return sorted((path, mode, oid, self._sizes[oid]) for path, mode, oid in found)

    def close(self) -> None:
        for proc in (self._batch, self._check):
            if proc is not None:
                proc.stdin.close()
                proc.wait()
        self._batch = self._check = None
