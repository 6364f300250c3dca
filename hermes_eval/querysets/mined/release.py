"""A release commit: a version bump or a changelog-only release, not a change request.

Two conditions, both needed (``filters.Release`` asks them):

- the subject names a release or a version bump (:func:`release_subject`): after an optional
  conventional-commit prefix (``chore(release):``), it is a version alone (``v1.2.3``), starts with
  ``release``/``pre-release``/``releasing`` or ``prepare`` and then a version or ``release``, with
  ``bump version``, or with ``version`` (or ``start``/``set``/``update``/``new``/``pre-release version``)
  followed by a version, or names ``VERSION release`` (``update history for 1.3.3 release``);
- every line the commit removes or adds in a code file is a version line (:func:`version_line`): blank, or
  nothing but version strings, numbers, names holding ``version`` and declaration words
  (``__version__ = "1.2.3"``, ``VERSION = (1, 2, 3, "final", 0)``, ``pub const VERSION: &str = "1.2.3";``,
  ``#define JQ_VERSION "1.7.1"``). A commit changing no code file (a changelog, ``pyproject.toml``) passes.
"""
from __future__ import annotations

import re
from typing import Iterator

from hermes_eval.querysets.mined.changes import Change, file_sections
from hermes_eval.querysets.mined.message import VERSION, VERSION_STRING

PREFIX = re.compile(r"^[a-z]+(\([^)]*\))?!?:\s*")  # chore(release): / build:
SUBJECTS = tuple(re.compile(p) for p in (
    rf"^{VERSION}\.?$",
    rf"^(pre-?)?releas(e|ed|ing)\b\s*(version\s+)?({VERSION}|notes?\b|date\b|$)",
    rf"^prep(are|ared|aring)?\b(\s+for)?(\s+the)?(\s+(next|new))?\s+(release\b|{VERSION})",
    r"^bump(ed|s|ing)?\s+(the\s+)?((package|project|library)\s+)?version\b",
    rf"^((start|begin|set|update|new|pre-?release|bump)\s+)?(the\s+)?version\s*:?\s*((up\s+)?to\s+)?{VERSION}",
    rf"\b{VERSION}\s+release\b",
))
NAME = re.compile(r"[A-Za-z_][\w.]*")
# words that may stand beside a version in a version line: declarations, types, version_info's release levels
DECLARATION = frozenset({"const", "pub", "static", "let", "var", "val", "final", "public", "private", "protected",
                         "export", "define", "str", "string", "char", "auto", "readonly", "release", "alpha", "beta",
                         "candidate", "dev", "rc", "post"})


def release_subject(message: str) -> bool:
    """The message's subject names a release or a version bump (case-insensitive)."""
    subject = message.strip().split("\n", 1)[0].strip().lower()
    subject = PREFIX.sub("", subject, count=1)
    return any(p.search(subject) for p in SUBJECTS)


def version_line(line: str) -> bool:
    """Blank, or only version strings, numbers, punctuation, names holding ``version`` and :data:`DECLARATION`."""
    rest = VERSION_STRING.sub(" ", line)
    return all("version" in n.lower() or n.lower() in DECLARATION for n in NAME.findall(rest))


def changed_lines(change: Change, kinds: frozenset[str]) -> Iterator[str]:
    """The lines ``change`` removes or adds in files of ``kinds`` (without their ``-``/``+`` mark)."""
    for diff, lines in zip(change.files, file_sections(change.patch)):
        if diff.kind not in kinds:
            continue
        start = next((i for i, line in enumerate(lines) if line.startswith("@@")), len(lines))
        for line in lines[start:]:
            if line and line[0] in "+-":
                yield line[1:]


def version_only(change: Change, kinds: frozenset[str] = frozenset({"code"})) -> bool:
    """Every line ``change`` removes or adds in files of ``kinds`` is a version line (none at all: true)."""
    return all(version_line(line) for line in changed_lines(change, kinds))
