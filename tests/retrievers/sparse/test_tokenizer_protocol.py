"""What every tokenizer owes a lexical index (retrievers/sparse/base.py), for each tokenizer the retriever
presets build and the memo the snapshot builds wrap them in: its capabilities are declared (None unless
it has the shortcut), and a shortcut it has counts what counting its tokens gives."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import retrievers
from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.parts import instantiate_part
from retrievers.kinds import missing_members
from retrievers.sparse.base import Tokenizer
from retrievers.sparse.memo import MemoTokenizer
from retrievers.sparse.tokenizer import CodeTokenizer

TEXTS = [p.read_text() for p in sorted(Path(retrievers.__file__).parent.rglob("*.py"))[:8]]
TEXTS += ["", "parseJSON parse_json HTTPServer x2 naïve café", "a a a b"]


def preset_tokenizers() -> dict[str, object]:
    """Every distinct tokenizer config in conf/retriever (a sparse leg's ``tokenizer`` or ``pretokenizer``)."""
    out = {}
    for preset in sorted(p.stem for p in (CONF_DIR / "retriever").glob("*.yaml")):
        sparse = compose([f"retriever={preset}"])["retriever"].get("sparse")
        for key in ("tokenizer", "pretokenizer"):
            node = sparse.get(key) if sparse is not None else None
            if node is not None and node.get("_target_"):
                out.setdefault(f"{node['_target_'].rsplit('.', 1)[-1]}:{sorted(node.items())}", node)
    return out


NODES = preset_tokenizers()
CASES = {name: (lambda node=node: instantiate_part(node)) for name, node in NODES.items()}
CASES["MemoTokenizer(CodeTokenizer)"] = lambda: MemoTokenizer(CodeTokenizer())


def test_the_presets_build_several_kinds_of_tokenizer():
    assert {name.split(":")[0] for name in NODES} >= {"CodeTokenizer", "BM25STextTokenizer", "GPT2PreTokenizer",
                                                      "WhitespaceTokenizer"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tokenizer_contract(case):
    tok = CASES[case]()
    assert isinstance(tok, Tokenizer) and missing_members(tok, Tokenizer) == []
    for text in TEXTS:
        tokens = tok(text)
        assert isinstance(tokens, list) and all(isinstance(t, str) for t in tokens)
        assert tok(text) == tokens
        if tok.counts is not None:  # the shortcut counts what the tokens count
            assert tok.counts(text) == (len(tokens), dict(Counter(tokens)))
    if tok.term_counts is not None:
        counted = tok.term_counts(TEXTS)
        assert [c.length for c in counted] == [len(tok(t)) for t in TEXTS]
        assert [c.as_dict(tok.terms) for c in counted] == [dict(Counter(tok(t))) for t in TEXTS]


def test_only_the_tokenizers_with_a_shortcut_declare_it():
    made = {case: make() for case, make in CASES.items()}
    assert {case.split(":")[0] for case, tok in made.items() if tok.counts is not None} == {"CodeTokenizer"}
    assert [case for case, tok in made.items() if tok.term_counts is not None] == ["MemoTokenizer(CodeTokenizer)"]
