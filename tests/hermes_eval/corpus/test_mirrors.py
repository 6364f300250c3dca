"""A repository's clone or mirror is found under a folder of them in each layout the mirror tooling and
people use, the first layout first; one that is not there is None. The old import path still works."""
from __future__ import annotations

import subprocess

import pytest

from hermes_eval.corpus.mirrors import CANDIDATES, find_repo


@pytest.mark.parametrize("layout", ["acme+tool/repo", "acme+tool", "acme/tool", "acme__tool", "tool",
                                    "acme+tool.git", "tool.git"])
def test_a_bare_mirror_is_found_in_each_layout(tmp_path, layout):
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / layout)], check=True)
    assert find_repo(tmp_path, "acme/tool") == tmp_path / layout
    assert find_repo(tmp_path, "acme/other") is None


def test_a_clone_is_found_and_the_first_layout_wins(tmp_path):
    for layout in ("tool", "acme+tool/repo"):
        subprocess.run(["git", "init", "-q", str(tmp_path / layout)], check=True)
    assert CANDIDATES[0] == "{owner}+{name}/repo"
    assert find_repo(tmp_path, "acme/tool") == tmp_path / "acme+tool" / "repo"
    (tmp_path / "plain" / "x").mkdir(parents=True)  # a folder that is no repository is not found
    assert find_repo(tmp_path, "plain/x") is None


def test_the_old_import_paths_name_the_same_objects():
    from hermes_eval.corpus.protocol import Protocol
    from hermes_eval.querysets.importers.swebench import find_repo as old_find_repo
    from hermes_eval.querysets.readers.swebench_protocols import Protocol as OldProtocol

    assert old_find_repo is find_repo and OldProtocol is Protocol
