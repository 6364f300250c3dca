"""compose reads the benchmark records only when an override names a group they fill; a benchmark's
experiment still composes by name, and a plain run composes without them."""
from __future__ import annotations

from hermes_eval.config import benchmark_overlays
from hermes_eval.config.compose import REGISTERED_GROUPS, compose, names_group


def test_which_overrides_name_the_records_groups():
    yes = ["experiment=swebench-lite", "+benchmark=cosqa", "~experiment", "experiment.x=1", "++benchmark=a"]
    no = ["retriever=bm25", "queryset.name=experiment", "corpus.sources=[git:x@benchmark]", "experiments=1"]
    assert all(names_group([o], REGISTERED_GROUPS) for o in yes)
    assert not any(names_group([o], REGISTERED_GROUPS) for o in no)


def test_a_plain_run_composes_without_reading_the_records(monkeypatch):
    calls = []
    monkeypatch.setattr(benchmark_overlays, "benchmarks", lambda d: calls.append(d) or {})
    cfg = compose(["retriever=bm25", "chunker=lines"])
    assert cfg.retriever.name and calls == []
