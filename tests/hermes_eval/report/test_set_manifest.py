"""The query-set line of a board: rows, queries, skips by reason and repeated task ids, from the manifest."""
from __future__ import annotations

from hermes_eval.report.set_manifest import set_line


def test_an_imported_release_says_what_was_kept_skipped_and_renamed():
    line = set_line({"protocol": "coderag-bench", "leaks_by_design": True,
                     "counts": {"rows": 455, "candidates": 373, "queries": 373},
                     "skipped": {"repo_not_selected": 82, "file_not_in_snapshot": 0},
                     "repeated_task_ids": {"a--b/idx": 46, "c--d/idx": 409}})
    assert line == ("protocol coderag-bench (leaks by design); 373 queries from 455 source rows; "
                    "skipped: repo not selected 82; 2 task ids repeated over 455 rows in the source, "
                    "renamed to unique ids")


def test_a_generated_set_without_counts_says_nothing_it_does_not_know():
    assert set_line({}) == ""
    assert set_line({"counts": {"candidates": 40, "queries": 30}}) == "30 queries from 40 source rows"
