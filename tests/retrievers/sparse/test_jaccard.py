"""RepoCoder's Jaccard retriever: scores equal |Q ∩ D| / |Q ∪ D| computed with Python sets on real
code, and the tokens are GPT-2's pre-tokenization (its own \\p{L}/\\p{N} pattern, run by `regex`)."""
from __future__ import annotations

from pathlib import Path

import click
import regex

from retrievers.chunkers.centred_windows import CentredWindowChunker
from retrievers.sparse.jaccard import JaccardIndex
from retrievers.sparse.tokenizer import GPT2PreTokenizer

# GPT-2's pattern as openai/gpt-2 encoder.py and tiktoken's r50k/p50k spell it
GPT2 = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def windows() -> list:
    out = []
    for path in sorted(Path(click.__file__).parent.glob("*.py"))[:6]:
        out += CentredWindowChunker().chunk(path.name, path.read_text(), "python")
    return out


def test_tokens_are_gpt2_pre_tokens_on_ascii_code():
    tok = GPT2PreTokenizer()
    for c in windows()[:200]:
        if c.text.isascii():  # \p{L} and [^\W\d_] differ only beyond ASCII (e.g. marks, ideographs)
            assert tok(c.text) == GPT2.findall(c.text), c.id


def test_scores_are_the_jaccard_of_token_sets():
    chunks = windows()
    index = JaccardIndex()
    index.build([c.id for c in chunks], [c.text for c in chunks])
    sets = {c.id: set(GPT2PreTokenizer()(c.text)) for c in chunks}
    for q in [c.text for c in chunks[::25]] + ["def main(ctx):", "zzz_no_such_token_qq"]:
        qs = set(GPT2PreTokenizer()(q))
        want = sorted(((d, len(qs & s) / len(qs | s)) for d, s in sets.items() if qs & s),
                      key=lambda x: (-x[1], x[0]))[:10]
        got = index.search([q], 10)[0]
        assert [d for d, _ in got] == [d for d, _ in want]
        assert all(abs(a[1] - b[1]) < 1e-12 for a, b in zip(got, want))


def test_save_and_load_give_the_same_rankings(tmp_path):
    chunks = windows()[:300]
    a = JaccardIndex()
    a.build([c.id for c in chunks], [c.text for c in chunks])
    a.save(tmp_path / "j")
    b = JaccardIndex()
    b.load(tmp_path / "j")
    q = chunks[7].text
    assert a.search([q], 20) == b.search([q], 20) and a.search([q], 1)[0][0][0] == chunks[7].id
