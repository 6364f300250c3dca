"""A query cut to its first words before Lucene parses it, as BLIZZARD's ``normalizeSimple1024`` keeps them."""
from __future__ import annotations

import re

_JAVA_WORD_SPLIT = re.compile(r"[!-/:-@\[-`{-~]+|[ \t\n\x0b\f\r]+")


def first_words(text: str, n: int) -> str:
    """``text`` cut to its first ``n`` words as ``text.split("\\\\p{Punct}+|\\\\s+")`` counts them (a leading
    separator makes an empty first word, as Java's split does), joined by spaces."""
    words = _JAVA_WORD_SPLIT.split(text)
    while words and words[-1] == "":  # Java drops trailing empty strings
        words.pop()
    return text if len(words) <= n else " ".join(words[:n])
