"""Released source as a stand-in for a SWE-bench snapshot whose repository cannot be cloned here
(django, matplotlib, scikit-learn are larger than a mirror may be).

An instance is kept only when its golden patch applies to a release's source with exact context
(GNU ``patch --dry-run -F0``: no fuzz; hunks may sit at other line numbers), so its gold files and
lines exist there as at ``base_commit``. The release is picked by :data:`RULE`. Gold lines are
the patch's old-side lines moved by each hunk's offset. Candidates are each version's first release
and its first pre-release (``x.y``, ``x.ya1`` / ``x.y.0``, ``x.y.0rc1``), where a development branch
at ``base_commit`` stands; scikit-learn adds its patch releases. Sources are the wheels
(``wheel:NAME==VERSION``): matplotlib's lay ``lib/matplotlib`` out as ``matplotlib``, so its patch
paths lose ``lib/``.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

RULE = ("of the candidate releases the golden patch applies to with exact context, the one where its hunks "
        "moved least (smallest sum of |offset| over the hunks: the patched files closest to the instance's "
        "own), ties to the older release")
_HUNK_HEAD = re.compile(r"^@@ -(\d+)((?:,\d+)? \+\d+(?:,\d+)? @@.*)$")
_CHECKING = re.compile(r"^checking file (.+)$")
_RESULT = re.compile(r"^Hunk #(\d+) (succeeded|FAILED|ignored) at \d+(?: \(offset (-?\d+) lines?\))?")


@dataclass(frozen=True)
class Releases:
    """Where a repository's released source comes from."""

    repo: str  # owner/name as SWE-bench names it
    dist: str  # the package on the index
    versions: tuple[str, ...]  # candidates, oldest first
    strip: str = ""  # a repository path prefix the wheel does not have

    def spec(self, version: str) -> str:
        return f"wheel:{self.dist}=={version}"


RELEASES = {r.repo: r for r in (
    Releases("django/django", "Django", tuple(
        "2.2a1 2.2 3.0a1 3.0 3.1a1 3.1 3.2a1 3.2 4.0a1 4.0 4.1a1 4.1 4.2a1 4.2 5.0a1 5.0".split())),
    Releases("matplotlib/matplotlib", "matplotlib", tuple(
        "3.0.0 3.1.0rc1 3.1.0 3.2.0rc1 3.2.0 3.3.0rc1 3.3.0 3.4.0rc1 3.4.0 3.5.0rc1 3.5.0 3.6.0rc1 3.6.0 "
        "3.7.0rc1 3.7.0 3.8.0rc1 3.8.0".split()), strip="lib/"),
    Releases("scikit-learn/scikit-learn", "scikit-learn", tuple(
        "0.20.0 0.20.1 0.20.2 0.20.3 0.20.4 0.21.0 0.21.1 0.21.2 0.21.3 0.22 0.22.1 0.22.2 0.23.0 0.23.1 0.23.2 "
        "0.24.0 0.24.1 0.24.2 1.0 1.0.1 1.0.2 1.1.0 1.1.1 1.1.2 1.1.3 1.2.0 1.2.1 1.2.2 1.3.0 1.3.1 1.3.2".split())),
)}


def relocate(patch: str, strip: str) -> str | None:
    """The patch with ``strip`` cut from every path (None when a file lies outside it)."""
    if not strip:
        return patch
    out = []
    for line in patch.split("\n"):
        for head in ("--- a/", "+++ b/"):
            if line.startswith(head) and not line.startswith(head + "/dev/null"):
                rest = line[len(head):]
                if not rest.startswith(strip):
                    return None
                line = head + rest[len(strip):]
        if line.startswith("diff --git "):
            line = line.replace(f" a/{strip}", " a/").replace(f" b/{strip}", " b/")
        out.append(line)
    return "\n".join(out)


def offsets(patch: str, root: Path) -> list[int] | None:
    """Each hunk's offset, in patch order, when ``patch`` applies to ``root`` with exact context
    (``patch --dry-run -F0``), else None."""
    proc = subprocess.run(["patch", "--dry-run", "-F0", "-p1", "--batch", "--force", "--verbose", "-d", str(root)],
                          input=patch, capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    found: list[int] = []
    for line in proc.stdout.splitlines():
        m = _RESULT.match(line)
        if m:
            if m[2] != "succeeded":
                return None
            found.append(int(m[3] or 0))
    expected = sum(1 for line in patch.split("\n") if _HUNK_HEAD.match(line))
    return found if len(found) == expected else None


def shifted(patch: str, moves: list[int]) -> str:
    """The patch with each hunk's old-side start moved by its offset (where it applies)."""
    out, k = [], 0
    for line in patch.split("\n"):
        m = _HUNK_HEAD.match(line)
        if m:
            line = f"@@ -{int(m[1]) + moves[k]}{m[2]}"
            k += 1
        out.append(line)
    return "\n".join(out)


def nearest(patch: str, source: Releases, root_of) -> tuple[str, str] | None:
    """(version, the patch as it applies there) by the module's rule, or None when no candidate takes
    it with exact context; ``root_of(version)`` is the release's unpacked source."""
    moved = relocate(patch, source.strip)
    if moved is None:
        return None
    best: tuple[int, str, list[int]] | None = None
    for version in source.versions:  # oldest first: a later release must move the hunks strictly less
        found = offsets(moved, root_of(version))
        if found is not None and (best is None or sum(map(abs, found)) < best[0]):
            best = (sum(map(abs, found)), version, found)
    return None if best is None else (best[1], shifted(moved, best[2]))
