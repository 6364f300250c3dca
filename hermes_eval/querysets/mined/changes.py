"""What a commit changes at its first parent: the files (renamed, created, deleted, binary), each
file's kind (code, test, docs, other), and the old-side lines it changes, read by the SWE-bench
importer's patch reader (``readers/patches.py``: a pure insertion anchored where it goes)."""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path

from hermes_eval.corpus.languages import is_code, is_docs
from hermes_eval.querysets.mined.commits import git
from hermes_eval.querysets.readers.patches import parse_patch, ranges

DIFF = ("diff-tree", "-p", "-M", "-U3", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
        "--dst-prefix=b/")
TEST_DIRS = frozenset({"test", "tests", "testing", "__tests__", "__test__", "spec", "specs", "testdata"})
TEST_FILE = re.compile(r"^(test_.*\.py|conftest\.py|.*_test\.[a-z]+|.*\.(test|spec)\.[cm]?[jt]sx?"
                       r"|.*(Test|Tests|IT)\.(java|kt|scala|cs)|.*_spec\.rb)$")
KINDS = ("code", "test", "docs", "other")


def kind_of(path: str) -> str:
    """``docs`` (prose), ``test`` (any other file under a test folder, or named as a test: a Tcl suite
    or a fixture is a test too), ``code`` (a language detected as code) or ``other``."""
    if is_docs(path):
        return "docs"
    parts = path.split("/")
    if TEST_DIRS.intersection(parts[:-1]) or TEST_FILE.match(parts[-1]):
        return "test"
    return "code" if is_code(path) else "other"


@dataclass(frozen=True)
class FileDiff:
    """One file of a diff: old path (None: created), new path (None: deleted), binary or not."""

    old: str | None
    new: str | None
    binary: bool = False

    @property
    def path(self) -> str:
        """The path it is known by: the old one when it existed (a rename's gold is on its old path)."""
        return self.old if self.old is not None else str(self.new)

    @property
    def kind(self) -> str:
        return kind_of(self.path)


@dataclass(frozen=True)
class Change:
    """A commit's diff against its first parent."""

    files: tuple[FileDiff, ...]
    spans: dict[str, tuple[tuple[int, int], ...]]  # old path -> changed old-side line runs
    patch: bytes

    def gold(self, kinds: frozenset[str]) -> dict[str, tuple[tuple[int, int], ...]]:
        """The line runs in existing files of ``kinds``."""
        return {p: s for p, s in self.spans.items() if kind_of(p) in kinds}

    def touched(self, kinds: frozenset[str]) -> int:
        """How many changed files (created, deleted or edited) are of ``kinds``."""
        return sum(1 for f in self.files if f.kind in kinds)


def _unquote(path: str) -> str:
    if path.startswith('"') and path.endswith('"'):
        raw = codecs.escape_decode(path[1:-1].encode("utf-8", "surrogateescape"))[0]
        return raw.decode("utf-8", "surrogateescape")
    return path


def _side(word: str) -> str | None:
    word = _unquote(word.split("\t", 1)[0].strip())
    return None if word == "/dev/null" else word[2:] if word[:2] in ("a/", "b/") else word


def _header(section: list[str]) -> FileDiff:
    """One ``diff --git`` section's header: its paths, whether created, deleted or binary."""
    old = new = None
    created = deleted = binary = False
    seen_sides = False
    for line in section[1:]:
        if line.startswith("@@"):
            break
        if line.startswith("rename from "):
            old = _unquote(line[12:])
        elif line.startswith("rename to "):
            new = _unquote(line[10:])
        elif line.startswith("new file mode"):
            created = True
        elif line.startswith("deleted file mode"):
            deleted = True
        elif line.startswith("Binary files "):
            binary = True
        elif line.startswith("--- "):
            old, seen_sides = _side(line[4:]), True
        elif line.startswith("+++ "):
            new = _side(line[4:])
    if not seen_sides and old is None and new is None:
        body = section[0][len("diff --git "):]
        if body.startswith('"'):
            end = body.index('"', 1) + 1
            old, new = _side(body[:end]), _side(body[end + 1:])
        else:  # a/P b/P: both halves are one path
            half = (len(body) - 1) // 2
            old = new = _side(body[:half])
    return FileDiff(None if created else old, None if deleted else new, binary)


def file_sections(patch: bytes) -> list[list[str]]:
    """The patch's lines, one list per file (from its ``diff --git`` line on), in the order of ``Change.files``."""
    sections: list[list[str]] = []
    for line in patch.decode("utf-8", "surrogateescape").split("\n"):
        if line.startswith("diff --git "):
            sections.append([line])
        elif sections:
            sections[-1].append(line)
    return sections


def read_change(repo: Path, parent: str, sha: str) -> Change:
    """The diff of ``sha`` against ``parent`` (renames found): files, old-side line runs and the patch."""
    patch = git(repo, *DIFF, parent, sha)
    text = patch.decode("utf-8", "surrogateescape")
    files = tuple(_header(s) for s in file_sections(patch))
    changed, _ = parse_patch(text)
    spans = {c.path: tuple(ranges(c)) for c in changed}
    return Change(files, spans, patch)


def patch_ids(repo: Path, patches: dict[str, bytes]) -> dict[str, str]:
    """``git patch-id --stable`` of each commit's patch (sha -> id); an empty patch has none."""
    stream = b"".join(b"commit " + sha.encode() + b"\n" + p for sha, p in patches.items() if p.strip())
    if not stream:
        return {}
    out = git(repo, "patch-id", "--stable", stdin=stream).decode()
    return {sha: pid for pid, sha in (line.split() for line in out.splitlines() if line.strip())}
