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


def test_a_mined_set_says_what_it_walked_and_every_filters_count_in_order_zeros_too():
    order = ["merge", "bot", "tangled"]
    line = set_line({"generator": "mine-history", "commits": 9, "first": "2024-01-03T10:00:00+00:00",
                     "last": "2025-12-17T09:00:00+00:00", "filter_order": order,
                     "counts": {"queries": 4, "already_localized": 1},
                     "skipped": {"tangled": 2, "bot": 0, "merge": 1, "duplicate": 1, "over_limit": 0,
                                 "gold_not_indexed": 1, "gold_spans_not_indexed": 3}})
    assert line == ("9 commits walked (2024-01-03 to 2025-12-17); 4 queries, 1 already localized; skipped by "
                    "filter: merge 1, bot 0, tangled 2, duplicate 1, over limit 0, gold not indexed 1")


def test_a_mined_set_line_reads_the_reasons_after_the_filters_from_the_miner(monkeypatch):
    from hermes_eval.querysets.mined import mine

    monkeypatch.setattr(mine, "AFTER_FILTERS", ("duplicate", "new_reason"))  # a reason the miner adds
    line = set_line({"filter_order": ["merge"], "commits": 3, "skipped": {"merge": 1, "new_reason": 2}})
    assert line.endswith("skipped by filter: merge 1, duplicate 0, new reason 2")
