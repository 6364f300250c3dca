"""A run naming snapshot_dense records it as a part: a new version of how its views rank reruns the arm; a run
without it records the parts it always did (an exact leg over the store ranks as its index per snapshot)."""
from __future__ import annotations

from hermes_eval.config.compose import compose
from hermes_eval.config.settings import settings_from
from hermes_eval.stages.reuse import changed_parts, part_identities
from hermes_eval.stages.run_parts import run_part_identities
from retrievers.dense.snapshot_legs import SharedDense
from retrievers.identity.declare import ATTRIBUTE, PartId


def _settings(*words: str):
    return settings_from(compose(["retriever=exact", "chunker=lines", *words]))


def test_without_the_group_the_parts_are_those_of_before():
    s = _settings()
    assert s.snapshot_dense is None and run_part_identities(s) == part_identities(s)


def test_the_group_is_a_part_whose_version_reruns_the_arm(monkeypatch):
    s = _settings("+snapshot_dense=filtered")
    assert isinstance(s.snapshot_dense.build(), SharedDense) and s.snapshot_dense.build().ann == "filtered"
    recorded = run_part_identities(s)
    assert "error" not in recorded["snapshot_dense"]
    assert changed_parts(recorded, run_part_identities(s)) is None
    assert changed_parts(part_identities(s), run_part_identities(s)) == "snapshot_dense snapshot_dense added"
    monkeypatch.setattr(SharedDense, ATTRIBUTE, PartId("retrievers.dense.snapshot_legs.SharedDense", 2))
    assert changed_parts(recorded, run_part_identities(s)) == "snapshot_dense snapshot_dense 1→2"
    assert _settings("+snapshot_dense=per_snapshot").config_hash not in (s.config_hash, _settings().config_hash)


def test_where_and_how_the_store_holds_its_rows_is_not_hashed_what_it_ranks_is(tmp_path):
    base = _settings("+snapshot_dense=filtered").config_hash
    placed = _settings("+snapshot_dense=filtered", "snapshot_dense.mmap_above_mb=1", "snapshot_dense.block_rows=64",
                       f"snapshot_dense.spill_dir={tmp_path}")
    assert placed.config_hash == base and placed.snapshot_dense.build().mmap_above_mb == 1
    assert _settings("+snapshot_dense=filtered", "snapshot_dense.ann=per_snapshot").config_hash != base
