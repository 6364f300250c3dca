"""A declared file score names itself in the system label (its own row on a board), and max or none adds
nothing (every committed label stays)."""
from __future__ import annotations

from hermes_eval.config.identity import system_label

BASE = {"retriever": {"name": "dense", "sparse": None, "dense": {"name": "exact"}},
        "fusion": {"_target_": "retrievers.fusion.rrf.WeightedRRF", "dense_weight": 1.0}, "embedder": {"name": "minilm"}}


def test_file_score_in_the_label():
    assert system_label(BASE) == "exact"
    assert system_label({**BASE, "file_score": {"how": "max"}}) == "exact"
    assert system_label({**BASE, "file_score": {"how": "sum_top_k", "k": 3}}) == "exact +files=sum_top_k@3"
    assert system_label({**BASE, "file_score": {"how": "first"}}) == "exact +files=first"
