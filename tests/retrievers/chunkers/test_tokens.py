"""The shared token count: the documented pieces, and long runs never under-counted."""
from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from retrievers.chunkers.tokens import LONG_RUN, count_tokens, line_tokens


@pytest.mark.parametrize("text, n", [("self.max_chars = 1500", 7), ("", 0), ("   ", 0),
                                     ("a" * LONG_RUN, 1), ("a" * (LONG_RUN + 1), LONG_RUN + 1),
                                     ("x = " + "7" * 100, 102), ("foo_bar", 3),
                                     ("InternationalizationExtension", 1), ("XMLHttpRequestUploadEventTarget", 1),
                                     ("ab12" * 10, 40)])
def test_documented_counts(text, n):
    assert count_tokens(text) == n


def test_a_200k_character_identifier_counts_one_token_per_character():
    line = "x = " + "identifier" * 20_000
    assert count_tokens(line) == 2 + 200_000
    assert line_tokens([line, "pass"]) == [200_002, 1]


def test_never_under_counts_minilm_on_long_runs():
    """On random long runs of letters or digits, MiniLM's WordPiece (its 100-character [UNK]
    cut-off switched off) never yields more tokens than this count."""
    from tokenizers import Tokenizer

    from retrievers.embedders.model_source import resolve_model

    tok = Tokenizer.from_file(str(Path(resolve_model("sentence-transformers/all-MiniLM-L6-v2")) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    rng = random.Random(0)
    for alphabet in (string.ascii_lowercase, string.ascii_letters, string.digits, "0123456789abcdef"):
        for n in (LONG_RUN + 1, 40, 99):
            run = "".join(rng.choice(alphabet) for _ in range(n))
            assert count_tokens(run) >= len(tok.encode(run, add_special_tokens=False).ids), run
