"""Run folders say which query set, chunker and system they hold."""
from __future__ import annotations

from hermes_eval.config.compose import compose
from hermes_eval.config.settings import settings_from


def test_run_folders_of_two_query_sets_never_share_a_name_prefix():
    names = {qs: settings_from(compose([f"queryset={qs}", "chunker=python_ast", "retriever=bm25"])).run_name
             for qs in ("docstring", "repoeval_function")}
    assert names["docstring"].startswith("default-docstring-python_ast-")
    assert names["repoeval_function"].startswith("default-repoeval-function-python_ast-")
    assert names["docstring"].rsplit("-", 1)[0] != names["repoeval_function"].rsplit("-", 1)[0]
