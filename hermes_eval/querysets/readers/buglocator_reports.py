"""BugLocator's bug-report XMLs (Zhou, Zhang & Lo, ICSE 2012), the reports of Bench4BL's "old" subjects:
``SUBJECTBugRepository.xml`` (AspectJ, SWT, ZXing, Eclipse), as kept in ``data/BugLocatorBugFiles/`` of
LeeeWee/BugLocator, read from the file, a checkout of that repository, or straight from its git mirror.

One ``<bug id reportTime>`` per report: ``<buginformation>`` (or the bug itself) holds ``<summary>`` and
``<description>``, ``<commit commitTime>`` the fix's time (no commit id), ``<fixedFiles><file>`` the files
the fix changed, in each subject's own path convention (repo-relative, package-relative, or under a
prefix of the old CVS layout). :class:`PathRule` says how such a path names a file of the source tree; the
rule of each subject is declared in the benchmark record, not here.
"""
from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.core.errors import UserError

FOLDER = "data/BugLocatorBugFiles"  # where LeeeWee/BugLocator keeps the XMLs
MATCHES = ("path", "suffix")


@dataclass(frozen=True)
class Bug:
    """One report: its id, text, times and the fixed files as the XML names them (order kept)."""

    id: str
    summary: str
    description: str
    report_time: str
    commit_time: str
    files: tuple[str, ...]

    @property
    def text(self) -> str:
        """The query: summary, then description (either may be empty)."""
        return "\n".join(p for p in (self.summary, self.description) if p)


def file_name(subject: str) -> str:
    return f"{subject}BugRepository.xml"


def _text(node: ET.Element | None, tag: str) -> str:
    found = node.find(tag) if node is not None else None
    return (found.text or "").strip() if found is not None else ""


def parse(data: bytes, where: str) -> list[Bug]:
    """The reports of one XML, in file order (text as the XML parser gives it: entities decoded once)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise UserError(f"{where}: not a BugLocator bug repository ({exc}): check the file") from None
    bugs = []
    for i, node in enumerate(root.iter("bug")):
        bug_id = (node.get("id") or "").strip()
        if not bug_id:
            raise UserError(f"{where}: bug {i} has no id attribute: check the file")
        info = node.find("buginformation")
        info = info if info is not None else node
        commit = node.find("commit")
        fixed = node.find("fixedFiles")
        files = tuple((f.text or "").strip() for f in (fixed.findall("file") if fixed is not None else [])
                      if (f.text or "").strip())
        bugs.append(Bug(bug_id, _text(info, "summary"), _text(info, "description"),
                        node.get("reportTime") or node.get("opendate") or "",
                        (commit.get("commitTime") if commit is not None else None) or node.get("fixdate") or "",
                        files))
    return bugs


def read(path: Path, subject: str, commit: str | None = None) -> tuple[bytes, dict]:
    """The XML of ``subject`` and where it came from: ``path`` is the XML itself, a folder holding it
    (directly or under ``data/BugLocatorBugFiles/``), or a git repository (a mirror or clone of
    LeeeWee/BugLocator) read at ``commit`` (default HEAD)."""
    path = Path(path)
    name = file_name(subject)
    if path.is_file():
        return path.read_bytes(), {"path": str(path.resolve()), "file": path.name}
    if not path.exists():
        raise UserError(f"{path} does not exist: give the {name} file or the BugLocator data (a checkout or "
                        f"git mirror of LeeeWee/BugLocator)")
    bare = (path / "HEAD").is_file() and (path / "objects").is_dir()
    if not bare and commit is None:
        for cand in (path / name, path / FOLDER / name):
            if cand.is_file():
                return cand.read_bytes(), {"path": str(path.resolve()), "file": str(cand.relative_to(path))}
    if bare or (path / ".git").exists():
        rev = commit or "HEAD"
        proc = subprocess.run(["git", "-C", str(path), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise UserError(f"{path}: no commit {rev!r}: check the reports_commit option or the mirror")
        sha = proc.stdout.strip()
        blob = subprocess.run(["git", "-C", str(path), "show", f"{sha}:{FOLDER}/{name}"], capture_output=True)
        if blob.returncode == 0:
            return blob.stdout, {"path": str(path.resolve()), "commit": sha, "file": f"{FOLDER}/{name}"}
    raise UserError(f"{path}: no {name} (looked for it there, in {FOLDER}/ and in the repository at "
                    f"{commit or 'HEAD'}): check the subject= option and the path")


@dataclass(frozen=True)
class PathRule:
    """How a fixed-file path of the XML names files of the source tree: ``strip`` is dropped from its
    front when present (AspectJ's ``org.aspectj/modules/``), then ``match`` is ``path`` (the tree's path
    itself) or ``suffix`` (every tree path that ends with it at a folder boundary: SWT's package-relative
    ``org/eclipse/swt/...`` names each platform's copy)."""

    match: str = "path"
    strip: str = ""

    def __post_init__(self) -> None:
        if self.match not in MATCHES:
            raise UserError(f"gold_match={self.match!r}: use one of {', '.join(MATCHES)}")

    def key(self, gold: str) -> str:
        gold = gold.replace("\\", "/").strip()
        return gold[len(self.strip):] if self.strip and gold.startswith(self.strip) else gold

    def files(self, gold: str, paths: "TreeIndex") -> list[str]:
        """The tree's files ``gold`` names (sorted; empty when none)."""
        key = self.key(gold)
        if self.match == "path":
            return [key] if key in paths.all else []
        return sorted(p for p in paths.by_name.get(key.rsplit("/", 1)[-1], ()) if p == key or p.endswith("/" + key))


@dataclass(frozen=True)
class TreeIndex:
    """A tree's file paths, and by file name (for suffix matches)."""

    all: frozenset[str]
    by_name: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, paths) -> "TreeIndex":
        by_name: dict[str, list[str]] = {}
        for p in paths:
            by_name.setdefault(p.rsplit("/", 1)[-1], []).append(p)
        return cls(frozenset(paths), {k: tuple(v) for k, v in by_name.items()})
