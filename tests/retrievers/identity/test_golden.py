"""Every preset's probe output is the recorded one, unless a part's version was bumped (then the
golden file is re-recorded with it): a change in what a part outputs never passes unannounced."""
from __future__ import annotations

import json

from tests.retrievers.identity.golden import GOLDEN, current, unbumped


def test_probe_outputs_match_the_golden_record_or_carry_a_version_bump():
    recorded = json.loads(GOLDEN.read_text())
    now = current()
    assert not unbumped(recorded, now), (
        f"outputs changed without a version bump: {unbumped(recorded, now)}; bump the part's @declare version, "
        "then `python -m tests.retrievers.identity.golden`")
    stale = sorted(k for k in now if recorded.get(k) != now[k])
    assert not stale, f"re-record after the version bump: `python -m tests.retrievers.identity.golden` ({stale})"
    assert set(recorded) == set(now), f"presets added or removed: {sorted(set(recorded) ^ set(now))}"


def test_the_record_refuses_a_changed_output_under_an_unchanged_version():
    entry = {"parts": ["retrievers.chunkers.lines.LineChunker@1"], "probe": "0" * 16}
    assert unbumped({"chunker/x": entry}, {"chunker/x": {**entry, "probe": "1" * 16}}) == ["chunker/x"]
    bumped = {"parts": ["retrievers.chunkers.lines.LineChunker@2"], "probe": "1" * 16}
    assert unbumped({"chunker/x": entry}, {"chunker/x": bumped}) == []
