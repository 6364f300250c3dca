"""The scripted history (scripted_repo.py), built once per session: its tests only read it."""
from __future__ import annotations


import pytest

from scripted_repo import Scripted, build


@pytest.fixture(scope="session")
def scripted(tmp_path_factory) -> Scripted:
    return build(tmp_path_factory.mktemp("history") / "calc")
