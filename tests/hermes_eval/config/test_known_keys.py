"""What a composed config knows: the overrides the docs and experiments use still compose, the keys `+` may add
are read by the code and listed in the README, and a near miss names its siblings first."""
from __future__ import annotations

from pathlib import Path

import pytest

from hermes_eval.config.compose import compose, first_of_sweeps
from hermes_eval.config.known_keys import OPTIONAL_KEYS, closest, optional
from hermes_eval.config.settings import settings_from
from hermes_eval.core.errors import UserError

ROOT = Path(__file__).resolve().parents[3]

# overrides written in README.md, conf/ comments, the Makefile and the benchmark steps: each must still compose
LEGITIMATE = [
    ["chunker=cast", "retriever=hybrid_fts5_usearch", "fusion.dense_weight=0.5"],
    ["corpus.sources=[pypi:evaluate==0.4.0, npm:commander@12.1.0, deb:librust-anyhow-dev=1.0.69-1, "
     "git:../flask@2.3.3, ./src]"],
    ["experiment=benchmarks", "paths.runs=runs/benchmarks", "+benchmark=cosqa,cosqa_pairs,cosqa_pairs_dedupe",
     "hydra.launcher.n_jobs=1"],
    ["queryset=imported", "queryset.name=requests-2023", "corpus=imported", "retriever=bm25", "chunker=lines"],
    ["experiment=embedders", "hydra.launcher.n_jobs=1", "paths.runs=runs/embedders"],
    ["experiment=default"], ["experiment=rerankers", "reranker=none,mmr", "rerank_depth=10,30"],
    ["+fusion_tuning=grid", "fusion_tuning.grid.dense_weight=[0.2,0.8]"],
    ["fusion=ranx_posfuse", "+fusion_tuning=ranx"],
    ["++corpus.exclude=[*/pkg/util.py]", "++corpus.languages=[python]"],  # importers' run commands
    ["+hygiene.tokenizer=approx"], ["reranker=mmr", "+rerank_depth=10"], ["hydra/launcher=basic"],
    ["shard=0/4,1/4"], ["scale_out=ray"], ["++seed=3"], ["system=hermes_offline"], ["queryset.generator.max_queries=40"],
]


@pytest.mark.parametrize("overrides", LEGITIMATE, ids=[" ".join(o)[:60] for o in LEGITIMATE])
def test_documented_overrides_compose(overrides):
    assert compose(first_of_sweeps(overrides)) is not None


def test_every_key_a_plus_may_add_is_read_by_the_code():
    """Each optional key reaches the settings (or the part) it names: none is added and then ignored."""
    s = settings_from(compose(["+hygiene.tokenizer=approx", "+hygiene.max_seq_tokens=64", "+hygiene.leak_lines=7",
                               "+hygiene.leak_line_chars=70", "+hygiene.leak_chars=210", "+corpus.exclude=[*/gen/*]",
                               "++corpus.languages=[go]", "corpus.max_file_bytes=1234", "reranker=mmr",
                               "+rerank_depth=11", "+fusion.weights.dense=0.25", "+embedder.checkpoint=128"]))
    h = s.hygiene
    got = (h.tokenizer_model, h.max_seq_tokens, h.leak_lines, h.leak_line_chars, h.leak_chars)
    assert got == (None, 64, 7, 70, 210)
    assert (s.corpus.exclude, s.corpus.languages, s.corpus.max_file_bytes) == (("*/gen/*",), ("go",), 1234)
    assert s.reranker.get("depth") == 11 and s.fusion.get("weights") == {"dense": 0.25}
    assert s.embedder.get("checkpoint") == 128
    assert {k.key for k in OPTIONAL_KEYS} == {"hygiene.tokenizer", "hygiene.max_seq_tokens", "hygiene.leak_lines",
                                              "hygiene.leak_line_chars", "hygiene.leak_chars", "corpus.exclude",
                                              "corpus.languages", "corpus.max_file_bytes", "rerank_depth",
                                              "fusion.weights.*", "embedder.checkpoint"}


def test_the_readme_lists_every_key_a_plus_may_add():
    text = " ".join((ROOT / "README.md").read_text().split())
    for k in OPTIONAL_KEYS:
        assert f"`{k.key.replace('.*', '.LEG')}`" in text, k.key


def test_optional_families_and_near_misses():
    assert optional("fusion.weights.colbert") and not optional("fusion.weights") and not optional("fusion.weight.x")
    keys = ["fusion", "fusion.dense_weight", "fusion.k", "fusion.weights", "seed", "shard", "chunker", "chunker.name",
            "chunk_workers"]
    assert closest("fusion.dense_wieght", keys) == ["fusion.dense_weight"]
    assert closest("chunkr", keys) == ["chunker", "chunk_workers"]  # siblings at the root, not chunker.name
    assert closest("sinse", keys) == []


def test_an_optional_key_without_a_plus_says_how_to_add_it():
    with pytest.raises(UserError, match=r"fusion.weights.colbert=1.0: fusion.weights.colbert is optional and not "
                                        r"in this config; add it with \+fusion.weights.colbert=1.0"):
        compose(["fusion.weights.colbert=1.0"])
