"""Read a ``git:PATH@COMMIT`` snapshot straight from the repository: its file list from git's tree
objects (``git_objects.py``: what ``git ls-tree -r --long`` lists, each folder shared by snapshots
parsed once), one ``git cat-file --batch`` per repository for the contents (a snapshot's new blobs read
ahead in round trips of bounded size).

Nothing is unpacked to disk, and a blob is read and decoded once per corpus however many snapshots
hold it: the snapshots of one repository share every unchanged file's text (one string in memory).
The files kept are the ones a scan of the unpacked tree keeps (same skipped folders, hidden files,
size limit, binary and non-UTF-8 rules, links inside the tree indexed once under the target's path);
unlike ``git archive`` it ignores ``export-ignore`` in ``.gitattributes``, so a snapshot is the
commit's whole tree.
"""
from __future__ import annotations

import posixpath
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.git_batch import ask
from hermes_eval.corpus.git_objects import MISSING, ObjectReader

LINK = "120000"


@dataclass(frozen=True)
class Entry:
    """One file of a commit's tree: path, git mode, blob sha and size in bytes (``MISSING``: absent)."""

    path: str
    mode: str
    sha: str
    size: int


def tree(repo: Path, commit: str, objects: ObjectReader | None = None) -> list[Entry]:
    """Every blob of ``commit`` (what ``git ls-tree -r --long`` lists), sorted by path; submodules left out.
    ``objects``: the repository's shared reader (folders and sizes shared by its snapshots read once)."""
    reader = objects or ObjectReader(repo)
    try:
        return [Entry(path, mode, sha, size) for path, mode, sha, size in reader.blobs(commit)]
    finally:
        if objects is None:
            reader.close()


class Blobs:
    """A repository's blobs through one ``git cat-file --batch`` process, each read once."""

    def __init__(self, repo: Path):
        self.repo = repo
        self.objects = ObjectReader(repo)  # the snapshots' file lists
        self._proc: subprocess.Popen | None = None
        self._text: dict[str, tuple[str | None, str | None]] = {}
        self._ahead: dict[str, bytes] = {}  # prefetched bytes, dropped once decoded
        self.read = 0  # blobs read from git (each distinct one once)

    def _proc_started(self) -> subprocess.Popen:
        if self._proc is None:
            self._proc = subprocess.Popen(["git", "-C", str(self.repo), "cat-file", "--batch"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return self._proc

    def _got(self, sha: str, header: list[bytes], data: bytes | None) -> bytes:
        if data is None:
            raise UserError(f"git cat-file {sha[:12]} in {self.repo}: blob missing ({b' '.join(header).decode()})")
        self.read += 1
        return data

    def raw(self, sha: str) -> bytes:
        """The blob's bytes, read from git (callers keep what they decode: ``text`` memoizes)."""
        if sha in self._ahead:
            return self._ahead.pop(sha)
        [(header, data)] = ask(self._proc_started(), [sha], content=True)
        return self._got(sha, header, data)

    def prefetch(self, shas: list[str]) -> None:
        """Read in one round trip the blobs of ``shas`` not decoded yet (a snapshot's files, before they
        are read one by one)."""
        todo = [s for s in dict.fromkeys(shas) if s not in self._text and s not in self._ahead]
        for sha, (header, data) in zip(todo, ask(self._proc_started(), todo, content=True)):
            self._ahead[sha] = self._got(sha, header, data)

    def text(self, sha: str, decode: Callable[[bytes], tuple[str | None, str | None]]) -> tuple[str | None, str | None]:
        """(text, None) or (None, why it is skipped), decoded once per blob."""
        if sha not in self._text:
            self._text[sha] = decode(self.raw(sha))
        return self._text[sha]

    def link_target(self, sha: str) -> str:
        return self.raw(sha).decode("utf-8", "surrogateescape")

    def close(self) -> None:
        self.objects.close()
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.wait()
            self._proc = None


def walk(entries: list[Entry], skip_dir: Callable[[str], bool],
         skipped: dict[str, int]) -> tuple[list[Entry], list[Entry]]:
    """(files, links) a scan of the unpacked tree would walk: nothing under a folder ``skip_dir``
    refuses (asked once per folder), no hidden file (counted in ``skipped``)."""
    pruned: set[str] = set()
    files: list[Entry] = []
    links: list[Entry] = []
    for e in entries:
        parts = e.path.split("/")
        inside_pruned = False
        for i, part in enumerate(parts[:-1]):
            prefix = "/".join(parts[:i + 1])
            if prefix in pruned:
                inside_pruned = True
                break
            if skip_dir(part):  # counts the folder itself, once, as os.walk prunes it
                pruned.add(prefix)
                inside_pruned = True
                break
        if inside_pruned:
            continue
        if parts[-1].startswith("."):
            skipped["hidden"] = skipped.get("hidden", 0) + 1
        elif e.mode == LINK:
            links.append(e)
        else:
            files.append(e)
    return files, links


def resolve_links(links: list[Entry], files: list[Entry], entries: list[Entry], blobs: Blobs,
                  skipped: dict[str, int]) -> list[Entry]:
    """Links as a scan treats them, each returned as its target's entry under the link's path: a link
    to a walked file is a duplicate, one to a file the walk skipped is kept once (first link wins),
    one leaving the tree or to nothing is skipped (counted); a link to a folder is not a file."""
    every = {e.path: e for e in entries}
    folders = {"/".join(e.path.split("/")[:i]) for e in entries for i in range(1, e.path.count("/") + 1)}
    real = {e.path for e in files}
    kept: list[Entry] = []
    for link in links:
        path, entry, why = link.path, link, None
        for _ in range(40):  # links to links are followed
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), blobs.link_target(entry.sha)))
            if target == ".." or target.startswith(("../", "/")):
                why = "symlink_outside_root"
            elif target in folders:
                why = "folder"
            elif target not in every:
                why = "broken_symlink"
            path, entry = target, every.get(target)
            if why or entry.mode != LINK:
                break
        if why == "folder":
            continue
        why = why or ("symlink_duplicate" if path in real else None)
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        real.add(path)
        kept.append(Entry(link.path, entry.mode, entry.sha, entry.size))
    return kept
