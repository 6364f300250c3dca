"""Clipping long documents before tokenizing: the model gets the same input ids, so the same vectors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from retrievers.embedders.clip import clipper, head_for
from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder


def _words(text: str) -> int:
    return len(text.split())


def test_a_head_ends_after_a_word_and_holds_more_than_the_limit():
    text = " ".join(f"w{i}" for i in range(5000))
    head = head_for(text, _words, 100)
    assert text.startswith(head) and text[len(head)] == " " and not head.endswith(" ")
    assert _words(head) > 100 and len(head) < len(text) / 4


@pytest.mark.parametrize("text", ["short text", "x" * 100_000, " " * 50 + "y" * 5000])
def test_texts_that_are_short_or_have_no_word_end_stay_whole(text):
    assert head_for(text, _words, 100) == text


def test_a_head_too_short_for_the_limit_grows_until_it_holds_enough():
    text = "a" + " " * 3000 + " ".join(["b"] * 1000)  # the first 800 characters hold one word
    head = head_for(text, _words, 100)
    assert _words(head) > 100 and text.startswith(head)


@pytest.fixture(scope="module")
def minilm():
    return SentenceTransformerEmbedder(cache_dir=None)


def _long_texts() -> list[str]:
    import click
    import jinja2

    files = [Path(click.__file__).parent / "core.py", Path(jinja2.__file__).parent / "compiler.py"]
    texts = [p.read_text() for p in files]
    texts.append("\t\t   " + "data = '" + "QUJD" * 3000 + "'\n" + texts[0])  # a long token-less run first
    texts.append("café naïve 日本語のテキスト " * 400 + "\u00a0end")  # accents, CJK, a no-break space
    texts.append("def f():\n" + "        \n" * 500 + "    return 1\n" * 300)  # whitespace-only lines
    return texts


def test_minilm_sees_the_same_input_ids_from_the_head(minilm):
    tok, limit = minilm.st.tokenizer, minilm.st.max_seq_length
    cut = clipper(tok, limit)
    assert cut is not None  # MiniLM's WordPiece splits words at whitespace
    clipped = 0
    for text in _long_texts():
        head = cut(text)
        clipped += len(head) < len(text)
        full_ids = tok(text, truncation=True, max_length=limit)["input_ids"]
        assert tok(head, truncation=True, max_length=limit)["input_ids"] == full_ids
    assert clipped >= 4


def test_clipped_and_whole_documents_embed_alike(minilm):
    texts = _long_texts() + ["def add(a, b):\n    return a + b\n"]
    whole = SentenceTransformerEmbedder(cache_dir=None, clip=False)
    a, b = minilm.embed_documents(texts), whole.embed_documents(texts)
    assert a.shape == b.shape and np.allclose(a, b, atol=1e-5)


def test_no_clipper_without_a_limit_or_a_word_splitting_pre_tokenizer(minilm):
    assert clipper(minilm.st.tokenizer, None) is None
    assert clipper(object(), 256) is None  # not a fast tokenizer
