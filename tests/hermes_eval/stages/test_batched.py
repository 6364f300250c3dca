"""A snapshot set run a batch of snapshots at a time (snapshot_batch): the same run files and record as the
set run at once, and each batch's files, chunks and lookup let go before the next batch is loaded."""
from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

import hermes_eval.stages.batched as batched
from hermes_eval.cli.main import main
from hermes_eval.record.sameness import runs_diffs


def _run(tmp: Path, arm: list[str], name: str, batch: int) -> Path:
    """The run with ``snapshot_batch=batch``, moved aside to ``name``: every tree records one paths.runs."""
    runs = tmp / "runs"
    assert main(["run", *arm, f"paths.runs={runs}", f"snapshot_batch={batch}"]) == 0
    [rec] = [json.loads(p.read_text()) for p in runs.glob("*/record.json")]
    assert rec["status"] == "ok", rec.get("error")
    return runs.rename(tmp / name)


def _counting_scans(monkeypatch) -> list[int]:
    """The number of sources of every batch the batched run loads."""
    loads: list[int] = []
    scan = batched.scan_sources

    def counted(resolved, *args, **kwargs):
        loads.append(len(resolved))
        return scan(resolved, *args, **kwargs)

    monkeypatch.setattr(batched, "scan_sources", counted)
    return loads


def test_batches_of_any_size_make_the_run_of_the_set_at_once(snapshot_set, monkeypatch):
    tmp, arm = snapshot_set
    whole = _run(tmp, arm, "whole", 0)  # 8 snapshots at once: the ordinary path
    loads = _counting_scans(monkeypatch)
    for batch in (1, 3):
        loads.clear()
        runs = _run(tmp, arm, f"batch{batch}", batch)
        assert loads == ([1] * 8 if batch == 1 else [3, 3, 2])  # the batched path ran, a batch at a time
        n, diffs = runs_diffs(whole, runs)  # run files byte for byte, per-query values and the record
        assert n == 1 and diffs == [], diffs
        [a], [b] = whole.glob("*/run.trec"), runs.glob("*/run.trec")
        assert a.parent.name == b.parent.name  # snapshot_batch is not hashed


def test_a_batch_is_let_go_before_the_next_is_loaded(snapshot_set, monkeypatch):
    tmp, arm = snapshot_set
    alive: list[weakref.ref] = []
    lookup, scan = batched.ChunkLookup, batched.scan_sources

    class Watched(lookup):
        def __init__(self, chunks):
            super().__init__(chunks)
            alive.append(weakref.ref(self))

    held: list[int] = []

    def scan_next(resolved, *args, **kwargs):
        gc.collect()
        held.append(sum(r() is not None for r in alive))  # earlier batches' lookups and corpora still alive
        corpus = scan(resolved, *args, **kwargs)
        alive.append(weakref.ref(corpus))
        return corpus

    monkeypatch.setattr(batched, "ChunkLookup", Watched)
    monkeypatch.setattr(batched, "scan_sources", scan_next)
    _run(tmp, arm, "batch2", 2)
    assert len(held) == 4 and len(alive) > 4
    assert held == [0, 0, 0, 0], held


def test_a_source_no_query_searches_rides_along_and_the_run_equals_the_set_at_once(snapshot_set, monkeypatch):
    """A set made before the builder left unsearched snapshots out: one query dropped, its snapshot stays a
    source. The batched path still runs (it used to fall back to the whole set at once) and equals that run."""
    from hermes_eval.core.queryset import QuerySet
    from hermes_eval.querysets.store import load_queryset, save_queryset

    tmp, arm = snapshot_set
    folder = tmp / "ds" / "shardset"
    qs = load_queryset(folder)
    gone = qs.queries[3]
    save_queryset(QuerySet(qs.name, tuple(q for q in qs.queries if q is not gone), qs.manifest), folder)
    assert len(qs.manifest["corpus_sources"]) == 8 and gone.meta["scope"] not in {
        q.meta["scope"] for q in load_queryset(folder).queries}
    whole = _run(tmp, arm, "whole", 0)
    loads = _counting_scans(monkeypatch)
    for batch, want in ((1, [2, 1, 1, 1, 1, 1, 1]), (3, [4, 3, 1])):
        loads.clear()
        runs = _run(tmp, arm, f"batch{batch}", batch)
        assert loads == want  # batched: 7 searched snapshots, the unsearched one scanned with the first batch
        n, diffs = runs_diffs(whole, runs)
        assert n == 1 and diffs == [], diffs
    [rec] = [json.loads(p.read_text()) for p in whole.glob("*/record.json")]
    assert gone.meta["scope"] not in rec["snapshots"] and len(rec["corpus_info"]["sources"]) == 8
