"""The BLIZZARD replication package (Rahman & Roy, ESEC/FSE 2018;
masud-technope/BLIZZARD-Replication-Package-ESEC-FSE2018), read from a checkout or straight from a git
mirror of it (``git ls-tree`` and one ``git cat-file --batch``: nothing unpacked).

Per project (``PROJECTS``): ``BR-Raw/P/ID.txt`` the report (first line ``[Bug ]ID – title``, then the
body; cp1252 or UTF-8), ``Goldset/P/ID.txt`` the changed files (repo-relative, one a line, non-Java
files included), ``BR-Classes/P/BR-{ST,PE,NL}.txt`` the report classes (stack traces, program entities,
natural language only), ``Baseline/Query/P.txt`` (``ID<TAB>query``, UTF-8 mostly, but the baseline read
it in Windows-1252, ``QUERY_ENCODING``: that decoding reproduces its ranks) the baseline's preprocessed
queries and ``Baseline/QE/P.txt`` (``ID<TAB>rank``) the rank of its first gold file (-1: none), and the
corpus: ``Corpus/P/N.java`` with ``Lucene-Index2File-Mapping/P.ckeys`` (``N:<Windows path>``) naming
each file's real path.
"""
from __future__ import annotations

import re

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.release_tree import ReleaseTree

PROJECTS = ("ecf", "eclipse.jdt.core", "eclipse.jdt.debug", "eclipse.jdt.ui", "eclipse.pde.ui", "tomcat70")
CLASSES = ("ST", "PE", "NL")
_TITLE = re.compile(rb"^\s*(?:Bug\s+)?(\d+)\s*(?:\x96|\xe2\x80\x93|-)?\s*")


QUERY_ENCODING = "cp1252"  # how the baseline run read Baseline/Query: Java's default charset on Windows


def decode(data: bytes) -> str:
    """UTF-8 when the bytes are, else Windows-1252 (how most reports were saved)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


class Package(ReleaseTree):
    """The package's files under ``root``: a folder (a checkout), or a git repository at ``commit``."""

    MARKER = "Goldset"
    HINT = ("give the BLIZZARD replication package (a checkout or a mirror of "
            "masud-technope/BLIZZARD-Replication-Package-ESEC-FSE2018)")

    def text(self, rel: str, encoding: str | None = None) -> str | None:
        """The file as text: ``encoding`` (undecodable bytes replaced), else :func:`decode`'s guess."""
        data = self.read(rel)
        return None if data is None else decode(data) if encoding is None else data.decode(encoding, "replace")

    # --- the package's tables ------------------------------------------------------------------------------
    def tsv(self, rel: str, encoding: str | None = None) -> dict[str, str]:
        """``ID<TAB>value`` lines (first occurrence of an id kept)."""
        out: dict[str, str] = {}
        for line in (self.text(rel, encoding) or "").splitlines():
            bug, tab, value = line.partition("\t")
            if tab and bug.strip() and bug.strip() not in out:
                out[bug.strip()] = value
        return out

    def classes(self, project: str) -> dict[str, str]:
        """bug id -> ST, PE or NL."""
        out: dict[str, str] = {}
        for c in CLASSES:
            for bug in (self.text(f"BR-Classes/{project}/BR-{c}.txt") or "").split():
                out.setdefault(bug.strip(), c)
        return out

    def gold(self, project: str, bug: str) -> list[str] | None:
        """The gold lines as BLIZZARD reads them (``content.split("\\n")``, blank ones dropped), None: no file."""
        text = self.text(f"Goldset/{project}/{bug}.txt")
        return None if text is None else [g for g in text.split("\n") if g.strip()]

    def report(self, project: str, bug: str) -> tuple[str, str] | None:
        """(title, body) of the bug report; None when it is missing."""
        data = self.read(f"BR-Raw/{project}/{bug}.txt")
        if data is None:
            return None
        first, _, rest = data.partition(b"\n")
        m = _TITLE.match(first)
        title = first[m.end():] if m and m.group(1).decode() == bug else first
        return decode(title).strip(), decode(rest).strip("\n")

    def mapping(self, project: str) -> dict[str, str]:
        """``N.java`` -> the file's original path with ``/`` (``\\My MSc\\...\\tomcat70\\java\\...``), as
        ClassResultRankMgr.loadKeys reads it (``line.split(":")[2]``)."""
        out: dict[str, str] = {}
        for line in (self.text(f"Lucene-Index2File-Mapping/{project}.ckeys") or "").splitlines():
            parts = line.split(":")
            if len(parts) > 2:
                out[parts[0].strip() + ".java"] = parts[2].strip().replace("\\", "/")
        return out


def repo_path(original: str, project: str) -> str:
    """The repository-relative path of a mapped file: what follows the project's folder."""
    parts = original.split("/")
    if project not in parts:
        raise UserError(f"mapping path {original!r} has no folder {project!r}: check Lucene-Index2File-Mapping")
    return "/".join(parts[parts.index(project) + 1:])


def gold_hits(original_paths: list[str], gold: list[str]) -> list[int]:
    """Positions of the files that BLIZZARD counts as gold: the original path ``endsWith`` a gold line
    (``ClassResultRankMgr.getFirstGoldRank``: no separator check, gold lines untrimmed)."""
    return [i for i, p in enumerate(original_paths) if any(p.endswith(g) for g in gold)]
