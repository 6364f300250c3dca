"""The documents of Gandhi et al.'s BM25 index, built from the repository with git (their
``src/scrape_local_v3.py`` + ``src/convert_to_jsonl.py``; their scraped parquet is not published).

Every commit reachable from the tip (``repo.iter_commits()``: merges included), diffed against its first
parent with rename detection (GitPython's ``parent.diff(commit)`` is ``git diff-tree -r -M``; a root commit
adds its whole tree). One document per changed file whose extension is in ``misc/code_extensions.json``
(``"." + path.split(".")[-1]``; the new path of a rename, the old one of a deletion), kept only when the
file's content on one side is non-empty UTF-8 (an addition: the new blob; a deletion: the old one; a
modification or rename: either), as their ``if not new_content and not previous_content: continue``
rules; other change kinds (type changes) load no content and are skipped too. Contents: the commit
message as git stores it; id: the commit; ``commit_date``: its committer date (unix seconds).
Documents are ordered by commit id, then the diff's order, which is how Anserini breaks score ties
(by the docid string, then by index order).
"""
from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.querysets.mined.commits import git

ZERO = "0" * 40
KEPT_CHANGES = {"A", "D", "M", "R"}


@dataclass(frozen=True)
class Doc:
    commit: str
    date: int  # committer date, unix seconds
    path: str
    message: str


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    parents: tuple[str, ...]
    date: int
    message: str


def commits(repo: Path, tip: str) -> list[CommitInfo]:
    """Every commit reachable from ``tip`` (``git rev-list`` order)."""
    out = git(repo, "log", "-z", "--format=%H%x01%P%x01%ct%x01%B", tip, "--").decode("utf-8", "replace")
    found = []
    for rec in out.split("\0"):
        if not rec.strip():
            continue
        sha, parents, date, message = rec.split("\x01", 3)
        found.append(CommitInfo(sha.strip(), tuple(parents.split()), int(date), message))
    return found


@dataclass(frozen=True)
class Change:
    status: str  # A, D, M, R (T, C, ... kept as read)
    path: str  # the new path (the old one for a deletion)
    old_blob: str
    new_blob: str


def changes(repo: Path, infos: list[CommitInfo]) -> dict[str, list[Change]]:
    """Each commit's changes against its first parent (the whole tree for a root), in diff order."""
    # "COMMIT PARENT": the commit against that one parent (diff-tree --stdin reads a commit and its parents)
    lines = [f"{c.sha} {c.parents[0]}" if c.parents else c.sha for c in infos]
    with tempfile.TemporaryFile() as f:
        f.write(("\n".join(lines) + "\n").encode())
        f.seek(0)
        proc = subprocess.run(["git", "-C", str(repo), "-c", "core.quotePath=false", "diff-tree", "--stdin",
                               "--always", "--root", "-r", "-M", "-z", "--raw", "--no-abbrev"],
                              stdin=f, capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git diff-tree in {repo} failed: {proc.stderr.decode(errors='replace')[-300:]}")
    tokens = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    out: dict[str, list[Change]] = {}
    i, n, k = 0, len(tokens), -1
    current: list[Change] = []
    while i < n:
        tok = tokens[i].strip("\n")
        i += 1
        if not tok:
            continue
        if not tok.startswith(":"):  # a header: the next input line's commit
            k += 1
            current = out.setdefault(infos[k].sha, [])
            continue
        _, _, old_blob, new_blob, status = tok[1:].split()
        kind = status[0]
        if kind in ("R", "C"):
            old_path, path = tokens[i], tokens[i + 1]
            i += 2
        else:
            path = tokens[i]
            i += 1
        current.append(Change(kind, path, old_blob, new_blob))
    return out


def readable(repo: Path, blobs: set[str]) -> set[str]:
    """The blobs whose content is non-empty and decodes as UTF-8 (one ``git cat-file --batch``)."""
    wanted = sorted(b for b in blobs if b and b != ZERO)
    good: set[str] = set()
    if not wanted:
        return good
    with tempfile.TemporaryFile() as f:
        f.write(("\n".join(wanted) + "\n").encode())
        f.seek(0)
        proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=f, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        for _ in wanted:
            header = proc.stdout.readline().decode().split()
            if len(header) < 3 or header[1] != "blob":
                continue  # "<sha> missing", or not a blob (a submodule's commit)
            size = int(header[2])
            data = proc.stdout.read(size + 1)[:size]
            if size:
                try:
                    data.decode("utf-8")
                    good.add(header[0])
                except UnicodeDecodeError:
                    pass
        proc.wait()
    return good


def code_path(path: str, extensions: frozenset[str]) -> bool:
    """Their rule: ``f".{file_path.split('.')[-1]}" in code_extensions``."""
    return f".{path.split('.')[-1]}" in extensions


def build(repo: Path, tip: str, extensions: frozenset[str]) -> tuple[list[Doc], dict]:
    """(the documents in Anserini's tie order, counts: commits walked, with a document, skipped changes)."""
    infos = commits(repo, tip)
    diffs = changes(repo, infos)
    skipped: Counter = Counter()
    candidates: list[tuple[CommitInfo, int, Change]] = []
    for c in infos:
        for j, ch in enumerate(diffs.get(c.sha, [])):
            if not code_path(ch.path, extensions):
                skipped["not_code_extension"] += 1
            elif ch.status not in KEPT_CHANGES:
                skipped[f"change_{ch.status}"] += 1
            else:
                candidates.append((c, j, ch))
    ok = readable(repo, {b for _, _, ch in candidates for b in (ch.old_blob, ch.new_blob)})
    docs: list[tuple[str, int, Doc]] = []
    for c, j, ch in candidates:
        sides = {"A": (ch.new_blob,), "D": (ch.old_blob,)}.get(ch.status, (ch.old_blob, ch.new_blob))
        if not any(b in ok for b in sides):
            skipped["no_utf8_content"] += 1
            continue
        docs.append((c.sha, j, Doc(c.sha, c.date, ch.path, c.message)))
    docs.sort(key=lambda t: (t[0], t[1]))
    out = [d for _, _, d in docs]
    counts = {"commits_walked": len(infos), "merges": sum(1 for c in infos if len(c.parents) > 1),
              "commits_with_documents": len({d.commit for d in out}), "documents": len(out),
              "skipped_changes": dict(sorted(skipped.items()))}
    return out, counts
