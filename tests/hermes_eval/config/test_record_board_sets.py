"""``board_sets`` in a benchmark record: query sets its importer makes from the command line (not
variants) that its board ranks by its main score and shows with its measures, as it does its variants'."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_eval.config.benchmarks import Board, boards, parse
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError

SRC = (CONF_DIR / "benchmarks" / "cosqa.yaml").read_text()


def _record(sets: object):
    data = yaml.safe_load(SRC)
    data.update(name="one", board="reports/lean", board_sets=sets)
    return parse(data, Path("one.yaml"))


def test_a_board_ranks_and_shows_its_records_board_sets_as_their_variants():
    record = _record(["cosqa-extra"])
    board = Board("lean", "reports/lean", (record,))
    variant = record.variants[0].name
    assert dict(board.main_scores)["cosqa-extra"] == record.main_score == dict(board.main_scores)[variant]
    assert dict(board.shown)["cosqa-extra"] == record.shown == dict(board.shown)[variant]
    assert record.ranked_sets[-1] == "cosqa-extra" and _record([]).board_sets == ()


def test_the_history_board_ranks_blizzards_five_eclipse_projects_by_file_mrr_at_10():
    scores = dict(boards(CONF_DIR)["history"].main_scores)
    eclipse = ["blizzard-ecf", "blizzard-eclipse.jdt.core", "blizzard-eclipse.jdt.debug", "blizzard-eclipse.jdt.ui",
               "blizzard-eclipse.pde.ui"]
    assert {scores.get(s) for s in eclipse} == {"file_mrr@10"} == {scores["blizzard-tomcat70"]}


@pytest.mark.parametrize("sets, error", [
    (["cosqa-test-pairs"], r"one.yaml board_sets: 'cosqa-test-pairs' is a variant"),
    (["x", "x"], r"one.yaml board_sets: 'x' is named twice")])
def test_a_board_set_is_listed_once(sets, error):
    with pytest.raises(UserError, match=error) as err:
        _record(sets)
    assert "\n" not in str(err.value)
