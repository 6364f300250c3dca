"""A long document cut, before it is tokenized, to a head the model's truncation never reaches past.

A transformer embedder sees the first ``max_seq_length`` tokens of a text, but a fast tokenizer turns
the whole text into tokens (ids, offsets, word ids) before it truncates: a 1 MB source file costs
tens of MB and a second, a batch of them gigabytes. Handing it a head that already holds more tokens
than the model keeps gives the same input ids, so the same vector, at a small fraction of the cost.
"""
from __future__ import annotations

import re
from typing import Callable

# pre-tokenizers that end a word at whitespace: a cut there leaves every earlier token as it was
WORD_SPLITTING = frozenset({"BertPreTokenizer", "Whitespace", "WhitespaceSplit", "ByteLevel", "Metaspace"})
CHARS_PER_TOKEN = 8  # the first head tried is max_tokens times this many characters; then 4x longer
_WORD_END = re.compile(r"\S(?=\s)")


def head_for(text: str, count: Callable[[str], int], max_tokens: int) -> str:
    """``text``, or a head of it holding more than ``max_tokens`` tokens (``count``: tokens of a text,
    special tokens left out) whose tokens begin the text's own: the cut falls right after a word, before
    whitespace, so with a word-splitting pre-tokenizer no token before it changes."""
    size = max_tokens * CHARS_PER_TOKEN
    while size < len(text):
        m = _WORD_END.search(text, size - 1)
        if m is None:
            break
        head = text[:m.end()]
        if count(head) > max_tokens:
            return head
        size *= 4
    return text


def splits_at_whitespace(pre_tokenizer) -> bool:
    """Whether a pre-tokenizer splits at whitespace, so a head cut at whitespace keeps its token ids."""
    return type(pre_tokenizer).__name__ in WORD_SPLITTING


def clipper(tokenizer, max_tokens: int | None) -> Callable[[str], str] | None:
    """A function cutting texts for ``tokenizer`` (a Hugging Face fast tokenizer) and a model that keeps
    ``max_tokens``; None when that would not be exact (no limit, a slow tokenizer, or a pre-tokenizer
    that does not split at whitespace)."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if not max_tokens or backend is None or not splits_at_whitespace(backend.pre_tokenizer):
        return None

    def count(head: str) -> int:
        return len(tokenizer(head, add_special_tokens=False, verbose=False)["input_ids"])  # no length warning

    return lambda text: head_for(text, count, max_tokens)


def tokenizers_clipper(tokenizer, max_tokens: int | None) -> Callable[[str], str] | None:
    """:func:`clipper` for a ``tokenizers.Tokenizer`` that truncates (the ONNX path): heads are measured
    by an untruncated, unpadded copy of it."""
    if not max_tokens or not splits_at_whitespace(tokenizer.pre_tokenizer):
        return None
    counter = type(tokenizer).from_str(tokenizer.to_str())
    counter.no_truncation()
    counter.no_padding()
    return lambda text: head_for(text, lambda head: len(counter.encode(head, add_special_tokens=False).ids),
                                 max_tokens)
