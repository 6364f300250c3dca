"""The query-length bound of hygiene (``may_exceed``) against the packaged MiniLM's own tokenizer, and the
tokenizer loaded only when a query needs counting."""
from __future__ import annotations

import string
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_eval.judge.leaks import ASCII_SLACK, may_exceed, token_counter
from hermes_eval.querysets.store import load_queryset

ROOT = Path(__file__).resolve().parents[3]
ADVERSARIAL = ["", " ", "a", "!" * 300, string.punctuation * 4, "1" * 200, "x" * 500, "aB" * 120,
               "\t\x00\x01\x7f" * 30, "A_b-C.d/e:f" * 25, "[CLS] [SEP] [UNK] [PAD] [MASK]" * 3,
               "getHTTPResponseCode2XX_v3" * 8, " ".join(string.printable) * 3]


@pytest.fixture(scope="module")
def minilm():
    count, name = token_counter("all-MiniLM-L6-v2")
    assert name == "tokenizer:all-MiniLM-L6-v2"  # the packaged model's tokenizer, not the approximation
    return count


def _committed_queries() -> list[str]:
    return [q.query for folder in sorted((ROOT / "datasets").iterdir()) if (folder / "manifest.json").exists()
            and ((folder / "queries.parquet").exists() or (folder / "queries.jsonl").exists())
            for q in load_queryset(folder).queries]


def test_an_ascii_text_never_holds_more_tokens_than_characters_plus_the_slack(minilm):
    texts = [t for t in _committed_queries() + ADVERSARIAL if t.isascii()]
    assert len(texts) > 100
    over = [t[:60] for t in texts if minilm(t) > len(t) + ASCII_SLACK]
    assert over == []


def test_a_text_the_bound_clears_is_never_too_long(minilm):
    for text in ADVERSARIAL:
        for limit in (8, 16, 64, 256, 512):
            if not may_exceed(text, limit):
                assert minilm(text) <= limit, (text[:40], limit)
    assert may_exceed("é", 256) and may_exceed("x" * 249, 256) and not may_exceed("x" * 248, 256)


def test_the_tokenizer_loads_at_the_first_text_counted():
    code = ("import sys; from hermes_eval.judge.leaks import token_counter; "
            "count, name = token_counter('all-MiniLM-L6-v2'); before = 'tokenizers' in sys.modules; "
            "n = count('def f(x): return x'); print(before, 'tokenizers' in sys.modules, n)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "10"]  # [CLS] def f ( x ) : return x [SEP]
