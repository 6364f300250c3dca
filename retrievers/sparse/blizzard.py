"""How BLIZZARD (Rahman & Roy, ESEC/FSE 2018) turned source files into the text its Lucene index holds
(its ``corpus/norm-class`` folder), then Lucene's analyzer over that text.

The package ships the raw files (``Corpus/``) and the index built from the normalized ones
(``Lucene-Index/``); the normalizer itself is not in the tool's sources. This one was recovered from the
index: on tomcat70 it gives every one of the 1,841 documents exactly the terms and frequencies of the
shipped Lucene 6.2.0 index (Lucene's own term dictionary read back, document by document). In Java terms:

1. ``content.split("\\\\p{Punct}+|\\\\d+|\\\\s+")``: ASCII punctuation (``_`` included), ASCII digits and
   ASCII whitespace separate words;
2. keep the words longer than 2 (UTF-16) characters whose lowercase is in neither
   ``stop-words-english-total.txt`` nor ``java-keywords.txt`` (BLIZZARD's ``StopWordManager``);
3. for each kept word with a camel hump (``[a-z][A-Z]``), append its parts, split by
   ``word.replaceAll("([a-z])([A-Z]+)", "$1\\t$2")`` (``getUserPrincipal`` -> get, User, Principal;
   ``parseJSONData`` -> parse, JSONData), the parts neither length- nor stop-filtered;
4. the words joined by spaces, then ``StandardAnalyzer`` (lowercase, Lucene's 33 stop words).

Queries are not normalized this way: the baseline's queries come preprocessed in the package.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from retrievers.identity.declare import declare
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.lucene import StandardAnalyzer, java_lower

WORDS = Path(__file__).resolve().parent / "blizzard_words"
_SPLIT = re.compile(r"[!-/:-@\[-`{-~]+|[0-9]+|[ \t\n\x0b\f\r]+")  # \p{Punct}+|\d+|\s+ (ASCII, as Java's)
_HUMP = re.compile(r"([a-z])([A-Z]+)")
_JAVA_SPACE = re.compile(r"[ \t\n\x0b\f\r]+")


@lru_cache(maxsize=1)
def stop_list() -> frozenset[str]:
    """BLIZZARD's stop list: its English stop words and the Java keywords, lines trimmed."""
    lines = []
    for name in ("stop-words-english-total.txt", "java-keywords.txt"):
        lines += (WORDS / name).read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip() for w in lines if w.strip())


def _utf16_len(word: str) -> int:
    return len(word) if word.isascii() else len(word.encode("utf-16-le")) // 2


def camel_parts(word: str) -> list[str]:
    """``decomposeCamelCase``: the word split before each run of capitals that follows a lowercase letter."""
    return [p for p in _JAVA_SPACE.split(_HUMP.sub("\\1\t\\2", word)) if p]


def normalize_code(text: str) -> str:
    """The ``norm-class`` text BLIZZARD indexed for a source file (steps 1-3 of the module's docstring)."""
    stop = stop_list()
    kept = [w for w in _SPLIT.split(text) if _utf16_len(w) > 2 and java_lower(w) not in stop]
    parts = [p for w in kept if _HUMP.search(w) for p in camel_parts(w)]
    return " ".join(kept + parts)


@declare("retrievers.sparse.blizzard.NormClassAnalyzer",
         resources=("blizzard_words/stop-words-english-total.txt", "blizzard_words/java-keywords.txt"))
@dataclass(frozen=True)
class NormClassAnalyzer(Tokenizer):
    """BLIZZARD's source normalization, then ``analyzer`` (Lucene's StandardAnalyzer)."""

    analyzer: Tokenizer = field(default_factory=StandardAnalyzer)

    def __call__(self, text: str) -> list[str]:
        return self.analyzer(normalize_code(text))
