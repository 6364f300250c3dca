"""``board_limits`` in a benchmark record: what its board keeps of query text and gold code; the smallest
any record of a board gives, the defaults where none gives one, and a mistake is one line naming it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_eval.config.benchmarks import Board, boards, parse
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError
from hermes_eval.report.anchors import limits_for
from hermes_eval.report.options import BoardLimits, limit_names

SRC = (CONF_DIR / "benchmarks" / "cosqa.yaml").read_text()


def _data(name: str, limits: object) -> dict:
    data = yaml.safe_load(SRC)
    data.update(name=name, board="reports/lean", **({"board_limits": limits} if limits is not None else {}))
    return data


def _conf(tmp_path, limits: object) -> Path:
    conf = tmp_path / "conf"
    (conf / "benchmarks").mkdir(parents=True)
    (conf / "benchmarks" / "one.yaml").write_text(yaml.safe_dump(_data("one", limits)))
    return conf


def test_a_board_keeps_the_smallest_limit_any_of_its_records_gives(tmp_path):
    records = tuple(parse(_data(n, limits), Path(f"{n}.yaml")) for n, limits in [
        ("one", {"query_chars": 600, "code_lines": 12}), ("two", {"query_chars": 400}), ("three", None)])
    assert Board("lean", "reports/lean", records).limits == {"query_chars": 400, "code_lines": 12}
    conf = _conf(tmp_path, {"query_chars": 400})
    assert limits_for("lean", conf) == BoardLimits(query_chars=400)
    assert limits_for(None, conf) == BoardLimits() == limits_for(str(conf / "benchmarks" / "one.yaml"), conf)


def test_the_recorded_boards_keep_the_defaults_but_history_and_swebench():
    assert limit_names() == ("query_chars", "code_lines", "code_chars", "latency_digits")
    known = boards(CONF_DIR)
    assert {n: b.limits for n, b in known.items() if b.limits} == {
        "history": {"query_chars": 300, "code_lines": 12, "code_chars": 1000, "latency_digits": 3},
        "swebench": {"query_chars": 300, "code_lines": 12, "code_chars": 1000, "latency_digits": 3}}
    assert limits_for("swebench", CONF_DIR) == BoardLimits(300, 12, 1000, 3)
    assert limits_for("repoeval", CONF_DIR) == BoardLimits()


@pytest.mark.parametrize("limits, error", [
    ({"query_lines": 3}, r"one.yaml board_limits: unknown field 'query_lines'"),
    ({"query_chars": 0}, r"one.yaml board_limits: field 'query_chars' must be a positive integer"),
    ({"code_lines": "many"}, r"one.yaml board_limits: field 'code_lines' must be an integer"),
    (600, r"one.yaml: field 'board_limits' must be a mapping")])
def test_a_mistake_in_board_limits_is_one_line(tmp_path, limits, error):
    with pytest.raises(UserError, match=error) as err:
        boards(_conf(tmp_path, limits))
    assert "\n" not in str(err.value)


def test_the_names_a_record_may_lower_are_the_limits_a_board_keeps():
    from hermes_eval.config.benchmarks import BOARD_LIMIT_NAMES

    assert BOARD_LIMIT_NAMES == limit_names()
