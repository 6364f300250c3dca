"""The query store reads ``datasets``' parquet with pyarrow alone: row for row what ``datasets`` itself reads,
on every committed query set and on a set written here with every field filled; a broken file is one line."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hermes_eval.core import Query, Span
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.store import _read_parquet, load_queryset, save_queryset

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = sorted(ROOT / p for p in subprocess.run(["git", "ls-files", "*.parquet"], cwd=ROOT, text=True,
                                                    capture_output=True, check=True).stdout.split()
                   if p.endswith("queries.parquet"))


def _by_datasets(path: Path) -> list[dict]:
    from datasets import Dataset

    return Dataset.from_parquet(str(path), keep_in_memory=True).to_list()


@pytest.mark.parametrize("path", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_every_committed_set_reads_as_datasets_reads_it(path, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path))
    assert _read_parquet(path) == _by_datasets(path)


def test_a_written_set_round_trips(tmp_path):
    q = Query(qid="a/1", query="find the parser", kind="docstring", repo="r",
              gold=(Span("src/p.py", 3, 9), Span("src/q.py", 1, 2)), exclude=(Span("src/p.py", 3, 4),),
              meta={"year": 2024, "already_localized": True})
    save_queryset(QuerySet(name="t", queries=(q,), manifest={}), tmp_path / "t")
    assert _read_parquet(tmp_path / "t" / "queries.parquet") == _by_datasets(tmp_path / "t" / "queries.parquet")
    got = load_queryset(tmp_path / "t").queries[0]
    assert (got.gold, got.exclude, got.meta) == (q.gold, q.exclude, q.meta)


def test_a_broken_file_is_one_line(tmp_path):
    bad = tmp_path / "queries.parquet"
    bad.write_bytes(b"PAR1 not really")
    with pytest.raises(UserError, match=r"queries.parquet: cannot read parquet .*regenerate the query set"):
        _read_parquet(bad)


def test_a_set_read_again_is_the_same_until_its_files_change(tmp_path, monkeypatch):
    import hermes_eval.querysets.store as store

    folder = tmp_path / "qs"
    save_queryset(QuerySet("qs", (Query("q1", "find the parser", (Span("a.py", 1, 2),)),), {"v": 1}), folder)
    first = load_queryset(folder)
    first.manifest["generator_code"] = "edited by the caller"  # obtain_queryset does this to its copy
    monkeypatch.setattr(store, "_read_queryset", lambda f: (_ for _ in ()).throw(AssertionError("read again")))
    second = load_queryset(folder)
    assert second.queries == first.queries and second.manifest["v"] == 1
    assert "generator_code" not in second.manifest  # the caller's edit was to its own copy
    monkeypatch.undo()
    save_queryset(QuerySet("qs", (Query("q2", "find the lexer", (Span("b.py", 3, 4),)),), {"v": 2}), folder)
    third = load_queryset(folder)  # rewritten: read afresh
    assert [q.qid for q in third.queries] == ["q2"] and third.manifest["v"] == 2
