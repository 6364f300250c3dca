"""Needle search: the automaton scan and the per-needle search agree with a regex look-ahead."""
from __future__ import annotations

import random
import re

import pytest

from hermes_eval.judge.occurrences import AUTOMATON_FROM, occurrences


def by_regex(text: str, needle: str) -> list[tuple[int, int]]:
    """Every occurrence, overlapping ones too (an independent implementation)."""
    return [(m.start(), m.start() + len(needle)) for m in re.finditer(f"(?={re.escape(needle)})", text)]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("automaton", [True, False])
def test_every_occurrence_overlaps_included_as_a_regex_finds_them(seed, automaton):
    rng = random.Random(seed)
    text = "".join(rng.choice("ab é\0") for _ in range(3000))  # small alphabet: many overlaps, non-ASCII
    needles = [text[i:i + rng.randint(1, 6)] for i in rng.sample(range(2990), 40)] + ["zz", "ab" * 40]
    max_copies = 10**6
    found = occurrences(text, needles, max_copies, automaton=automaton)
    assert set(found) == set(needles)
    for needle in needles:
        assert found[needle] == by_regex(text, needle)
    assert found["zz"] == [] and found["ab" * 40] == []


@pytest.mark.parametrize("automaton", [True, False])
def test_a_needle_in_more_than_max_copies_places_is_boilerplate(automaton):
    text = "x = 1\n" * 6 + "y = 2\n" * 5
    found = occurrences(text, ["x = 1", "y = 2", "y = 2\ny"], max_copies=5, automaton=automaton)
    assert found["x = 1"] == []  # six places: boilerplate
    assert [s for s, _ in found["y = 2"]] == [36, 42, 48, 54, 60]
    assert len(found["y = 2\ny"]) == 4


def test_many_needles_take_the_automaton_and_agree_with_few(monkeypatch):
    from hermes_eval.judge import occurrences as module

    scans = []
    scanned = module._scanned
    monkeypatch.setattr(module, "_scanned", lambda *args: scans.append(len(args[1])) or scanned(*args))
    rng = random.Random(7)
    text = " ".join(rng.choice(["def", "self", "return", "x", "y", "import"]) for _ in range(5000))
    needles = sorted({text[i:i + 12] for i in rng.sample(range(len(text) - 12), AUTOMATON_FROM + 50)})
    assert len(needles) > AUTOMATON_FROM
    assert occurrences(text, needles, 5) == occurrences(text, needles, 5, automaton=False)
    assert scans == [len(needles)]  # the default took one automaton scan; the forced call took none
    occurrences(text, needles[:AUTOMATON_FROM], 5)
    assert scans == [len(needles)]  # up to AUTOMATON_FROM needles are found one by one
