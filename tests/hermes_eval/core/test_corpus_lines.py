"""CorpusFile.n_lines counts lines as str.splitlines does, on every kind of line break."""
from __future__ import annotations

import random

from hermes_eval.core.corpus import CorpusFile

PIECES = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "a", "é", " "]


def test_n_lines_equals_splitlines():
    rng = random.Random(5)
    texts = ["", "\n", "x", "x\n", "x\n\n", "\n\nx"] + [
        "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 9))) for _ in range(5000)]
    for text in texts:
        assert CorpusFile("a.py", "r", "python", text).n_lines == len(text.splitlines()), repr(text)
