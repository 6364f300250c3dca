"""Fixtures of the query-set tests: the repositories of qs_repos.py written into tmp_path and loaded."""
from __future__ import annotations

from pathlib import Path

import pytest

from hermes_eval.corpus import load_corpus
from qs_repos import POLYGLOT, SHOP, write_repo


@pytest.fixture
def shop(tmp_path) -> Path:
    return write_repo(tmp_path / "shop_repo", SHOP)


@pytest.fixture
def shop_corpus(shop):
    return load_corpus([str(shop)], name="shop", cache_dir=shop.parent / "cache")


@pytest.fixture
def polyglot_corpus(tmp_path):
    return load_corpus(sorted(str(p) for p in POLYGLOT.iterdir()), name="fx", cache_dir=tmp_path / "cache")


@pytest.fixture
def inline_corpus(tmp_path):
    """Build a one-repository corpus from {relative path: text} (texts dedented)."""
    def build(files: dict[str, str], name: str = "inline"):
        root = write_repo(tmp_path / name, files)
        return load_corpus([str(root)], name=name, cache_dir=tmp_path / "cache")
    return build
