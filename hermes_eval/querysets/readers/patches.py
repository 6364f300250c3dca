"""A unified diff (SWE-bench's golden patch) -> the old-side lines it changes, per file.

Gold lines are the lines of the old file (at ``base_commit``) that a hunk removes or replaces;
a run of added lines with nothing removed is anchored at its insertion point: the old line
just before it (line 1 when it is inserted at the top of the file). Files the patch creates
(``--- /dev/null``) have no old side and are reported apart.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class FileChange:
    path: str  # old-side path, relative to the repository root
    lines: tuple[int, ...]  # old-side line numbers the patch touches, sorted
    hunks: tuple[tuple[int, int], ...] = field(default=())  # each hunk's old-side (start, length)


def _strip(p: str) -> str:
    p = p.split("\t", 1)[0].strip()
    return p[2:] if p[:2] in ("a/", "b/") else p


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def ranges(change: FileChange) -> list[tuple[int, int]]:
    """Contiguous (start, end) runs of ``change.lines``."""
    return _runs(list(change.lines))


def parse_patch(diff: str) -> tuple[list[FileChange], list[str]]:
    """(changed files with their old-side lines, paths the patch creates)."""
    changes: list[FileChange] = []
    created: list[str] = []
    path: str | None = None
    touched: list[int] = []
    hunks: list[tuple[int, int]] = []
    old = 0
    pending_insert = False

    def close() -> None:
        if path is not None:
            changes.append(FileChange(path, tuple(sorted(set(touched))), tuple(hunks)))

    lines = diff.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            close()
            src, dst = _strip(line[4:]), _strip(lines[i + 1][4:])
            path, touched, hunks = (None if src == "/dev/null" else src), [], []
            if src == "/dev/null":
                created.append(dst)
            continue
        m = HUNK.match(line)
        if m:
            old = int(m[1])
            hunks.append((old, int(m[2]) if m[2] is not None else 1))
            pending_insert = False
            continue
        if path is None or not hunks or line.startswith("+++ "):
            continue
        if line.startswith("-"):
            touched.append(old)
            old += 1
            pending_insert = False
        elif line.startswith("+"):
            if not pending_insert and (not touched or touched[-1] != old - 1):
                touched.append(max(old - 1, 1))  # a pure insertion: anchored where it goes
            pending_insert = True
        elif line.startswith(" ") or line == "":
            old += 1
            pending_insert = False
    close()
    return [c for c in changes if c.lines], created
