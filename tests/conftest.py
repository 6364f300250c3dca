"""Shared fixtures: a small real corpus (the installed `requests` source) and config helpers."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    """One cache (chunks, embeddings) for the whole test session, so MiniLM embeds once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def make_cfg(tmp_path, shared_cache):
    """Compose the real Hydra config with test paths and a small real corpus."""
    from hermes_eval.config.compose import compose

    def _make(*overrides: str, runs: Path | None = None, datasets: Path | None = None):
        base = [f"paths.runs={runs or tmp_path / 'runs'}", f"paths.datasets={datasets or tmp_path / 'datasets'}",
                f"paths.cache={shared_cache}", "corpus.name=requests_src", "corpus.sources=[pkg:requests]",
                "queryset.generator.max_queries=40", "bootstrap=200", "warmup=2"]
        return compose(base + list(overrides))

    return _make
