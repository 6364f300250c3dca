"""A published data release read where it is: a checkout (a folder), or straight from a git repository
at a commit (``git ls-tree`` and one ``git cat-file --batch``: nothing unpacked). The importers of
bug-localization packages name their release's marker folder and how to obtain it."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import git_tree


def is_git(path: Path) -> bool:
    """A bare repository (a mirror) or a clone."""
    return (path / "HEAD").is_file() and (path / "objects").is_dir() or (path / ".git").exists()


@dataclass
class ReleaseTree:
    """The release's files under ``root``: a folder, or a git repository at ``commit``."""

    MARKER: ClassVar[str] = ""  # a folder every checkout of the release holds
    HINT: ClassVar[str] = "give the release (a checkout or a git mirror of it)"

    root: Path
    commit: str | None = None  # None: a folder
    _tree: dict[str, git_tree.Entry] | None = field(default=None, repr=False)
    _blobs: git_tree.Blobs | None = field(default=None, repr=False)

    @classmethod
    def open(cls, path: Path, commit: str | None = None):
        path = Path(path)
        if not is_git(path):
            if commit:
                raise UserError(f"commit={commit}: {path} is a folder, not a git repository; drop the option")
            if cls.MARKER and not (path / cls.MARKER).is_dir():
                raise UserError(f"{path}: no {cls.MARKER}/ folder: {cls.HINT}")
            return cls(path)
        proc = subprocess.run(["git", "-C", str(path), "rev-parse", "--verify", f"{commit or 'HEAD'}^{{commit}}"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise UserError(f"{path}: no commit {commit or 'HEAD'} ({proc.stderr.strip()}): check the mirror")
        return cls(path, proc.stdout.strip())

    @property
    def source(self) -> dict:
        return {"path": str(self.root.resolve()), "commit": self.commit}

    def _entries(self) -> dict[str, git_tree.Entry]:
        if self._tree is None:
            self._tree = {e.path: e for e in git_tree.tree(self.root, self.commit)}
        return self._tree

    def names(self, folder: str) -> list[str]:
        """The names of the files directly in ``folder`` (sorted)."""
        if self.commit is None:
            d = self.root / folder
            return sorted(p.name for p in d.iterdir() if p.is_file()) if d.is_dir() else []
        prefix = folder.rstrip("/") + "/"
        return sorted(p[len(prefix):] for p in self._entries() if p.startswith(prefix) and "/" not in p[len(prefix):])

    def read(self, rel: str) -> bytes | None:
        """The file's bytes, None when the release lacks it (or a mirror lacks its blob)."""
        if self.commit is None:
            p = self.root / rel
            return p.read_bytes() if p.is_file() else None
        e = self._entries().get(rel)
        if e is None or e.size == git_tree.MISSING:
            return None
        if self._blobs is None:
            self._blobs = git_tree.Blobs(self.root)
        return self._blobs.raw(e.sha)

    def close(self) -> None:
        if self._blobs is not None:
            self._blobs.close()
            self._blobs = None
