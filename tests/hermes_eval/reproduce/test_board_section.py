"""A reproduction's section in a board README: written between its markers, replaced on a re-run, the rest
of the page untouched."""
from __future__ import annotations

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.reproduce.board_section import markers, with_section, write_section


def test_a_section_is_appended_once_then_replaced_in_place(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Board\n\nintro\n")
    assert write_section(readme, "blizzard_agreement", "| a |\n|--|\n| 1 |\n")
    first = readme.read_text()
    begin, end = markers("blizzard_agreement")
    assert first.startswith("# Board\n\nintro\n\n" + begin) and first.endswith(end + "\n")
    readme.write_text(first + "\nafter\n")
    assert write_section(readme, "blizzard_agreement", "| a |\n|--|\n| 2 |")
    second = readme.read_text()
    assert "| 2 |" in second and "| 1 |" not in second and second.endswith("\nafter\n")
    assert second.count(begin) == 1
    assert not write_section(readme, "blizzard_agreement", "| a |\n|--|\n| 2 |")  # same tables: unchanged


def test_sections_of_two_reproductions_are_kept_apart():
    text = with_section(with_section("", "a", "A1"), "b", "B1")
    text = with_section(text, "a", "A2")
    assert "A2" in text and "A1" not in text and "B1" in text


def test_a_lone_marker_is_one_line_naming_the_fix():
    begin, _ = markers("a")
    with pytest.raises(UserError, match="without the other"):
        with_section(f"x\n{begin}\nold\n", "a", "new")
