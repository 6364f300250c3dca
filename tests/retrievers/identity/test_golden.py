"""Every preset's probe output is the recorded one, unless a part's version was bumped (then the
golden file is re-recorded with it): a change in what a part outputs never passes unannounced. Discrete
output is compared exactly, numbers within the tolerances ``golden.py`` states."""
from __future__ import annotations

import copy
import json

from tests.retrievers.identity.golden import GOLDEN, VECTOR_ATOL, current, differences, unbumped


def test_probe_outputs_match_the_golden_record_or_carry_a_version_bump():
    recorded = json.loads(GOLDEN.read_text())
    now = current()
    assert not unbumped(recorded, now), (
        f"outputs changed without a version bump: {unbumped(recorded, now)}; bump the part's @declare version, "
        "then `python -m tests.retrievers.identity.golden`")
    stale = sorted(k for k in now if k in recorded and differences(recorded[k], now[k]))
    assert not stale, f"re-record after the version bump: `python -m tests.retrievers.identity.golden` ({stale})"
    assert set(recorded) == set(now), f"presets added or removed: {sorted(set(recorded) ^ set(now))}"


def test_the_record_refuses_a_changed_output_under_an_unchanged_version():
    entry = {"parts": ["retrievers.chunkers.lines.LineChunker@1"], "probe": "0" * 16}
    assert unbumped({"chunker/x": entry}, {"chunker/x": {**entry, "probe": "1" * 16}}) == ["chunker/x"]
    bumped = {"parts": ["retrievers.chunkers.lines.LineChunker@2"], "probe": "1" * 16}
    assert unbumped({"chunker/x": entry}, {"chunker/x": bumped}) == []


def test_numbers_are_compared_within_the_tolerance_not_by_their_bits():
    recorded = json.loads(GOLDEN.read_text())
    emb, leg = recorded["embedder/minilm"], recorded["retriever/bm25/sparse"]
    near_v, far_v = copy.deepcopy(emb), copy.deepcopy(emb)
    near_v["vectors"][0][0] += VECTOR_ATOL / 10  # a low-bit difference: another SIMD path
    far_v["vectors"][0][0] += VECTOR_ATOL * 10  # a behaviour change
    assert differences(emb, near_v) == [] and differences(emb, far_v) == ["vectors"]
    near_s, far_s, fewer = copy.deepcopy(leg), copy.deepcopy(leg), copy.deepcopy(leg)
    near_s["scores"][0][0] *= 1 + 1e-6
    far_s["scores"][0][0] *= 1.01
    fewer["scores"][0] = fewer["scores"][0][:-1]
    assert differences(leg, near_s) == []
    assert differences(leg, far_s) == ["scores"] and differences(leg, fewer) == ["scores"]
    assert unbumped({"e": emb}, {"e": far_v}) == ["e"]


def test_the_record_holds_no_digest_of_numbers():
    """Digests are of discrete output only; numbers are kept as numbers (so a tolerance can apply)."""
    recorded = json.loads(GOLDEN.read_text())
    for name, entry in recorded.items():
        kind = name.split("/")[0]
        expected = {"chunker": {"parts", "probe"}, "retriever": {"parts", "probe", "scores"},
                    "embedder": {"parts", "model", "vectors"}}[kind]
        assert set(entry) == expected, name
    assert len(recorded["embedder/minilm"]["vectors"][0]) == 384
