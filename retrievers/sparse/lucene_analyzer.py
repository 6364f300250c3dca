"""Lucene 6's ``StandardAnalyzer`` without Java: ``StandardTokenizer`` (Unicode UAX#29 word boundaries) +
``LowerCaseFilter`` + ``StopFilter`` with ``StopAnalyzer.ENGLISH_STOP_WORDS_SET`` (33 words).

The tokenizer is a regular expression over the Unicode ``Word_Break`` property (the ``regex`` package's Unicode,
not Lucene 6's 6.3): letters, digits and ``_`` join; ``.``/``'``/``:`` and the other MidLetter/MidNumLet marks
join two letters, ``,``/``.``/``;`` two digits; Han and Hiragana are one token per character, Thai-like scripts
one token per run; tokens longer than 255 characters are cut into 255-character pieces (Lucene 6.2 does; Lucene 7
too). Not modelled: the Hebrew double-quote rules (WB7b/c), Katakana next to letters, and Extend/Format marks
before a joining mark (``a\\u0301.b``); Java's ``Character.toLowerCase`` is copied for the one character where
Python's ``str.lower`` differs (U+0130).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from retrievers.identity.declare import declare
from retrievers.sparse.base import Tokenizer

# StopAnalyzer.ENGLISH_STOP_WORDS_SET (Lucene 6.x), the StandardAnalyzer() default
ENGLISH_STOP_WORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
    "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
    "will", "with"))
MAX_TOKEN_LENGTH = 255  # StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH

_TOKEN = None


def _token_pattern():
    """The StandardTokenizer approximation (compiled once; needs the ``regex`` package)."""
    global _TOKEN
    if _TOKEN is None:
        import regex

        letter = r"\p{WB=ALetter}\p{WB=Hebrew_Letter}"
        num, ext = r"\p{WB=Numeric}", r"\p{WB=ExtendNumLet}"
        keep = r"\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}"  # WB4: ignored inside a word
        unit = f"[{letter}{num}{ext}][{keep}]*"
        mid_letter = r"[\p{WB=MidLetter}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
        mid_num = r"[\p{WB=MidNum}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
        word = (f"(?:{unit})+(?:(?<=[{letter}][{keep}]*){mid_letter}[{keep}]*(?=[{letter}])(?:{unit})+"
                f"|(?<=[{num}][{keep}]*){mid_num}[{keep}]*(?=[{num}])(?:{unit})+)*")
        katakana = rf"(?:\p{{WB=Katakana}}[{keep}]*)+"
        southeast = rf"(?:\p{{Line_Break=SA}}[{keep}]*)+"  # Thai, Lao, Myanmar, Khmer: one run, no dictionary
        single = r"[\p{Script=Han}\p{Script=Hiragana}]"  # ideographs and hiragana: one token each
        _TOKEN = regex.compile(f"{southeast}|{katakana}|{single}|{word}", regex.V1)
    return _TOKEN


_ONLY_CONNECTORS = re.compile(r"^[_\u203f\u2040\u2054\ufe33\ufe34\ufe4d-\ufe4f\uff3f\u202f]+$")


def java_lower(text: str) -> str:
    """``String.toLowerCase`` as ``LowerCaseFilter`` applies it (``Character.toLowerCase`` per code point):
    Python's ``str.lower`` except that U+0130 becomes a plain ``i``, not ``i`` + combining dot."""
    return text.lower() if "\u0130" not in text else "".join("i" if c == "\u0130" else c.lower() for c in text)


def standard_tokens(text: str, max_token_length: int = MAX_TOKEN_LENGTH) -> list[str]:
    """StandardTokenizer's tokens of ``text``, case kept (tokens longer than ``max_token_length`` cut)."""
    out: list[str] = []
    for m in _token_pattern().finditer(text):
        tok = m.group()
        if _ONLY_CONNECTORS.match(tok):  # `_` alone is no word (StandardTokenizer emits letters or numbers)
            continue
        if len(tok) <= max_token_length:
            out.append(tok)
        else:
            out.extend(tok[i:i + max_token_length] for i in range(0, len(tok), max_token_length))
    return out


@declare("retrievers.sparse.lucene.StandardAnalyzer")
@dataclass(frozen=True)
class StandardAnalyzer(Tokenizer):
    """Lucene 6's ``new StandardAnalyzer()``: StandardTokenizer, lowercase, the 33 English stop words
    (``stopwords=False``: none, as ``new StandardAnalyzer(CharArraySet.EMPTY_SET)``)."""

    stopwords: bool = True
    max_token_length: int = MAX_TOKEN_LENGTH

    def __call__(self, text: str) -> list[str]:
        toks = [java_lower(t) for t in standard_tokens(text, self.max_token_length)]
        return [t for t in toks if t not in ENGLISH_STOP_WORDS] if self.stopwords else toks
