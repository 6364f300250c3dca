"""PinnedSpec: the last separator splits name from version, and each failure names its fix."""
from __future__ import annotations

import re

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.pinned_spec import PinnedSpec

SPEC = PinnedSpec("reg", "@", re.compile(r"^@?[a-z/]+$"), re.compile(r"^\d+$"), "a reg name", "a whole number",
                  "reg:abc@1", "7", "reg-list {name}")


def test_the_last_separator_splits_so_scoped_names_keep_their_at():
    assert SPEC.parse("reg:@team/abc@12") == ("@team/abc", "12")
    assert SPEC.parse("reg:abc@3") == ("abc", "3")


@pytest.mark.parametrize("spec,fix", [
    ("reg:ABC@1", "'ABC' is not a reg name; write reg:NAME@VERSION (e.g. reg:abc@1)"),
    ("reg:abc", "reg:abc needs a version: write reg:abc@VERSION (`reg-list abc` lists them)"),
    ("reg:@team/abc", "reg:@team/abc needs a version"),
    ("reg:abc@x1", "'x1' is not a whole number, e.g. reg:abc@7 (`reg-list abc` lists them)"),
])
def test_each_failure_is_one_line_naming_the_spec_and_the_fix(spec, fix):
    with pytest.raises(UserError) as err:
        SPEC.parse(spec)
    assert fix in str(err.value) and str(err.value).startswith(f"corpus source {spec!r}") and "\n" not in str(err.value)
