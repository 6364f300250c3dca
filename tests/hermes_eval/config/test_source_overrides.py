"""Source specs in overrides are quoted for Hydra's grammar; nothing else is touched."""
from __future__ import annotations

import pytest

from hermes_eval.config.compose import compose, first_of_sweeps
from hermes_eval.config.source_overrides import quote_source_lists


@pytest.mark.parametrize("raw, quoted", [
    ("corpus.sources=[pypi:evaluate==0.4.0]", 'corpus.sources=["pypi:evaluate==0.4.0"]'),
    ("corpus.sources=[deb:x-dev=1:2.3~b-1, npm:@s/x@1.0.0]", 'corpus.sources=["deb:x-dev=1:2.3~b-1","npm:@s/x@1.0.0"]'),
    ("corpus.sources=['pypi:a==1',b]", "corpus.sources=['pypi:a==1',\"b\"]"),
    ("corpus.sources=[a==1],[b==2]", 'corpus.sources=["a==1"],["b==2"]'),
    ("++corpus.sources=[]", "++corpus.sources=[]"),
    ("chunker=lines", "chunker=lines"),
    ("corpus.name=[a==1]", "corpus.name=[a==1]"),
])
def test_quoting(raw, quoted):
    assert quote_source_lists([raw]) == [quoted]
    assert quote_source_lists(quote_source_lists([raw])) == [quoted]  # idempotent


def test_compose_and_sweep_validation_read_the_unquoted_forms():
    specs = ["pypi:evaluate==0.4.0", "npm:commander@12.1.0", "deb:librust-anyhow-dev=1.0.69-1", "git:/x/y@abc123", "./src"]
    cfg = compose([f"corpus.sources=[{', '.join(specs)}]"])
    assert list(cfg.corpus.sources) == specs
    assert first_of_sweeps(["corpus.sources=[pypi:a==1],[deb:b=2-1]"]) == ['corpus.sources=["pypi:a==1"]']
