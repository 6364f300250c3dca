"""Hygiene on every board: per-run columns, a warning and a heading for leaking sets, and a note
when arms were scored on different answerable sets."""
from __future__ import annotations

from dataclasses import replace

import pytest
from fakeruns import BASELINE, DENSE_AST, HYBRID, queries, write_arm

from hermes_eval.report.publish import build_reports


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("hyg")
    qs = queries(plant=False)
    write_arm(root / "runs", BASELINE, qs, 0, hygiene={"unanswerable": 0, "leak_share": 0.0})
    write_arm(root / "runs", DENSE_AST, qs, 1, hygiene={"unanswerable": 3, "leak_share": 0.0})
    for k, arm in enumerate((BASELINE, HYBRID)):  # a set whose queries sit verbatim in their gold
        write_arm(root / "runs", replace(arm, config_hash=arm.config_hash[:-1] + "9"), qs, k, queryset="aa-leaky",
                  hygiene={"self_retrieval_share": 1.0, "leak_share": 1.0, "unanswerable": 0})
    build_reports(root / "runs", root / "reports")
    return (root / "reports" / "leaderboard.md").read_text()


def test_every_board_row_carries_hygiene_columns(board):
    header = next(line for line in board.splitlines() if line.startswith("| \\#"))
    assert header.rstrip(" |").endswith("self-ret. | leak | unans.")
    rows = [line for line in board.split("# Leaking query sets")[0].splitlines() if line[:4] in ("| 1 ", "| 2 ")]
    assert sorted(line.rsplit("|", 4)[1:] for line in rows) == [[" 0% ", " 0% ", " 0 ", ""], [" 0% ", " 0% ", " 3 ", ""]]


def test_a_leaking_set_ranks_under_its_own_heading_with_a_warning(board):
    clean, leaking = board.split("# Leaking query sets")
    assert "## toy-qs" in clean and "aa-leaky" not in clean  # sorted first by name, ranked after clean sets
    assert "## aa-leaky" in leaking
    assert "> **LEAKING: 100.0% of queries appear verbatim in their gold text \\(threshold 5%\\)" in leaking
    assert "| 100% | 100% | 0 |" in leaking


def test_differing_unanswerable_counts_are_said_next_to_the_comparison(board):
    toy = board.split("## toy-qs")[1].split("# Leaking")[0]
    note = next(line for line in toy.splitlines() if line.startswith("⚠") and "unanswerable" in line)
    assert "lines/rank\\_bm25: 0" in note and "python\\_ast/exact: 3" in note
    assert not any(line.startswith("⚠") and "unanswerable" in line for line in board.split("## aa-leaky")[1].splitlines())
