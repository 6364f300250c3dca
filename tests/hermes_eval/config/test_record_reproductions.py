"""``reproductions`` in a benchmark record: the reproductions ``hermes-eval benchmark NAME --reproduce`` runs,
names or {name, options}; every committed record names registered ones; a mistake is one line naming it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_eval.config.benchmarks import benchmarks, parse
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError
from hermes_eval.reproduce.registry import REPRODUCTIONS

SRC = yaml.safe_load((CONF_DIR / "benchmarks" / "blizzard.yaml").read_text())


def _parse(reproductions: object):
    return parse({**SRC, "reproductions": reproductions}, Path("blizzard.yaml"))


def test_names_and_options_are_read_in_order():
    got = _parse(["ye_compare", {"name": "blizzard_agreement", "options": {"projects": ["ecf", "tomcat70"],
                                                                           "variant": "blizzard-tomcat70"}}])
    assert [r.name for r in got.reproductions] == ["ye_compare", "blizzard_agreement"]
    assert dict(got.reproductions[1].options) == {"projects": "ecf,tomcat70", "variant": "blizzard-tomcat70"}
    assert parse({k: v for k, v in SRC.items() if k != "reproductions"}, Path("blizzard.yaml")).reproductions == ()


@pytest.mark.parametrize("value,message", [
    ("blizzard_agreement", "must be a list"),
    ([{"name": "Blizzard-Agreement"}], "reproductions\\[0\\]: field 'name' must be a registered"),
    ([{"name": "blizzard_agreement", "option": {}}], "reproductions\\[0\\].*option"),
    (["blizzard_agreement", "blizzard_agreement"], "named twice"),
    ([{"name": "blizzard_agreement", "options": {"variant": "blizzard-ecf"}}], "'blizzard-ecf' is not a variant"),
])
def test_a_mistake_is_one_line_naming_the_file_and_field(value, message):
    with pytest.raises(UserError, match=message) as e:
        _parse(value)
    assert "blizzard.yaml" in str(e.value) and "\n" not in str(e.value)


def test_every_record_names_registered_reproductions():
    named = {r.name: b.name for b in benchmarks(CONF_DIR).values() for r in b.reproductions}
    assert set(named) <= set(REPRODUCTIONS), {n: b for n, b in named.items() if n not in REPRODUCTIONS}
    # and each registered reproduction has its record: the benchmark whose published system it re-runs
    assert named == {"blizzard_agreement": "blizzard", "bench4bl_compare": "bench4bl", "ye_compare": "ye",
                     "commit_bm25": "gandhi"}
