"""A commit message as a change request: subject and body, the trailer block git reads taken off;
and what a message says about other commits (reverts, cherry-picks)."""
from __future__ import annotations

import re

REVERT_SUBJECT = re.compile(r'^\s*Revert\s+"')
REVERTS = re.compile(r"This reverts commit ([0-9a-f]{7,40})")
CHERRY_PICKED = re.compile(r"\(cherry picked from commit ([0-9a-f]{7,40})\)")
WORD = re.compile(r"\w+")
LETTER = re.compile(r"[^\W\d_]")  # a letter of any script
VERSION = r"v?\.?\d+(?:\.\d+)+(?:[-.+]?[a-z]+\.?\d*)*"  # 1.2.3, v2.0.0rc1, 1.3.4-dev, 2.0.0.dev0, v.0.7.0
VERSION_STRING = re.compile(rf"(?<![\w.]){VERSION}(?!\w)", re.IGNORECASE)


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
    """Words in ``text``: runs of letters, digits and underscores that hold a letter, once version strings are
    taken out ("2.2.0", "(#188)" and "2.0.0rc1" are none; "pre-release" and "TTLCache.__getitem__" two)."""
    return sum(1 for run in WORD.findall(VERSION_STRING.sub(" ", text)) if LETTER.search(run))


def is_revert(message: str) -> bool:
    """A revert: ``Revert "..."`` subject or a ``This reverts commit X`` line."""
    return bool(REVERT_SUBJECT.match(message) or REVERTS.search(message))


def reverted(message: str) -> list[str]:
    """The (possibly abbreviated) shas a revert message names."""
    return REVERTS.findall(message)


def cherry_picked_from(message: str) -> list[str]:
    """The shas named by ``(cherry picked from commit X)`` lines."""
    return CHERRY_PICKED.findall(message)
