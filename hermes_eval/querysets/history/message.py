"""A commit message as a change request: subject and body, the trailer block git reads taken off;
and what a message says about other commits (reverts, cherry-picks)."""
from __future__ import annotations

import re

REVERT_SUBJECT = re.compile(r'^\s*Revert\s+"')
REVERTS = re.compile(r"This reverts commit ([0-9a-f]{7,40})")
CHERRY_PICKED = re.compile(r"\(cherry picked from commit ([0-9a-f]{7,40})\)")
WORD = re.compile(r"\w+")


def paragraphs(message: str) -> list[str]:
    """The message's paragraphs (blank-line separated), each without surrounding blank lines."""
    lines = [line.rstrip() for line in message.strip("\n").split("\n")]
    out: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            out[-1].append(line)
        elif out[-1]:
            out.append([])
    return ["\n".join(p) for p in out if p]


def clean(message: str, trailers: str) -> str:
    """Subject and body without the final trailer block (``trailers``: that block as git's own trailer
    parser, ``%(trailers)`` / ``git interpret-trailers --parse``, found it; '' when there is none)."""
    parts = paragraphs(message)
    if trailers.strip() and len(parts) > 1:  # git never reads the subject (first paragraph) as trailers
        parts = parts[:-1]
    return "\n\n".join(parts).strip()


def word_count(text: str) -> int:
    """Words (runs of letters, digits, underscore) in ``text``."""
    return len(WORD.findall(text))


def is_revert(message: str) -> bool:
    """A revert: ``Revert "..."`` subject or a ``This reverts commit X`` line."""
    return bool(REVERT_SUBJECT.match(message) or REVERTS.search(message))


def reverted(message: str) -> list[str]:
    """The (possibly abbreviated) shas a revert message names."""
    return REVERTS.findall(message)


def cherry_picked_from(message: str) -> list[str]:
    """The shas named by ``(cherry picked from commit X)`` lines."""
    return CHERRY_PICKED.findall(message)
