"""Arms of one sweep in one process share their corpus and chunks: kept only inside ``sharing``, one value
per level, the old one let go before the new one is made; and an arm that reads a kept corpus measures
what it measures alone."""
from __future__ import annotations

import pytest

from hermes_eval.cli.sweep_launcher import batches, grouped_order
from hermes_eval.record.sameness import runs_diffs
from hermes_eval.stages import arm_share, prepare, snapshots
from hermes_eval.stages.arm_share import clear, held, kept, sharing


@pytest.fixture(autouse=True)
def _nothing_kept():
    clear()
    yield
    clear()


def test_outside_sharing_nothing_is_kept():
    calls = []
    assert kept("corpus", "a", "x", lambda: calls.append(1) or len(calls)) == 1
    assert kept("corpus", "a", "x", lambda: calls.append(1) or len(calls)) == 2
    assert held() == {}


def test_inside_sharing_one_value_per_key_and_a_new_key_drops_its_level_and_the_later_ones_first():
    made = []

    def make(name):
        def compute():
            made.append((name, dict(held())))  # what is still held while the new value is made
            return name
        return compute

    with sharing():
        assert kept("corpus", "c1", "prepared", make("c1")) == "c1"
        assert kept("chunking", ("c1", "lines"), "chunks", make("k1")) == "k1"
        assert kept("chunking", ("c1", "lines"), "lookup", make("l1")) == "l1"
        assert kept("corpus", "c1", "prepared", make("again")) == "c1"  # kept: not made again
        assert kept("chunking", ("c1", "lines"), "chunks", make("again")) == "k1"
        assert [name for name, _ in made] == ["c1", "k1", "l1"]
        assert held()["chunking"] == (("c1", "lines"), ("chunks", "lookup"))
        # another corpus: both levels are let go before it is made
        assert kept("corpus", "c2", "prepared", make("c2")) == "c2"
        assert made[-1] == ("c2", {"corpus": ("c2", ())})  # nothing of c1 left while c2 is made
        assert held() == {"corpus": ("c2", ("prepared",))}
    with sharing():  # what one job kept, the next job's block finds
        assert kept("corpus", "c2", "prepared", make("again")) == "c2"
    clear()
    assert held() == {}
    assert not arm_share.active()


def test_a_failed_computation_keeps_nothing():
    with sharing():
        with pytest.raises(ValueError):
            kept("corpus", "c", "prepared", lambda: (_ for _ in ()).throw(ValueError("bad")))
        assert kept("corpus", "c", "prepared", lambda: "ok") == "ok"


def test_jobs_of_one_key_run_next_to_each_other_and_batches_fill_the_workers():
    keys = ["wf", "fn", "wf", None, "fn", None]
    assert grouped_order(keys) == [0, 2, 1, 4, 3, 5]
    assert batches(keys, 2) == [[0, 2], [1, 4], [3], [5]]
    assert batches(["a"] * 5, 2) == [[0, 1, 2], [3, 4]]  # one group split so that both workers work
    assert batches(["a"] * 5, 1) == [[0, 1, 2, 3, 4]]
    assert batches(["a", "b"], 4) == [[0], [1]]
    # jobs without a key (resumed) run alone and do not count: the keyed group is still split
    assert batches([None, "a", "a", None], 2) == [[0], [1], [2], [3]]
    assert batches([None, "a", "a", "a", None], 2) == [[0], [1, 2], [3], [4]]


def test_a_second_arm_reads_the_kept_snapshots_and_measures_what_it_measures_alone(snapshot_set, monkeypatch):
    from hermes_eval.api import run
    from hermes_eval.config.compose import compose

    tmp, arm = snapshot_set
    snapshots.assembly_key()  # the module's identity probe chunks two probe snapshots once per process: not an arm's
    loads, chunkings = [], []
    real_load, real_chunk = prepare.load_corpus, snapshots.chunk_by_content
    monkeypatch.setattr(prepare, "load_corpus", lambda *a, **k: loads.append(1) or real_load(*a, **k))
    monkeypatch.setattr(snapshots, "chunk_by_content", lambda *a, **k: chunkings.append(1) or real_chunk(*a, **k))

    def arms(folder: str) -> list:
        """Both arms, run from ``folder`` with paths.runs=runs (the recorded configs are then equal)."""
        (tmp / folder).mkdir()
        monkeypatch.chdir(tmp / folder)
        return [run(compose([*arm, f"retriever={name}", "paths.runs=runs"])) for name in ("bm25", "mteb_bm25")]

    with sharing():
        shared = arms("shared")
    assert [o.status for o in shared] == ["ok", "ok"], [o.record.get("error") for o in shared]
    assert (len(loads), len(chunkings)) == (1, 1)  # the second arm loaded and chunked nothing
    assert {"chunks", "lookup", "stats"} <= set(held()["chunking"][1])
    clear()
    alone = arms("alone")
    assert [o.status for o in alone] == ["ok", "ok"]
    assert (len(loads), len(chunkings)) == (3, 3)  # without sharing each arm loads and chunks
    assert runs_diffs(tmp / "shared" / "runs", tmp / "alone" / "runs") == (2, [])
