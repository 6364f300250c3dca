"""The mined query set of the scripted history: every skip reason counted exactly, every gold span
as derived by hand from the scripted edits (in its parent's snapshot), trailers off, the commit date
and year, the already-localized flag; options; and a run that searches each commit's own snapshot and
reports the declared year and localized strata."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted_repo import DIV_QUERY, GOLD, SKIPPED

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.mined import mine


def _mine(scripted, tmp_path: Path, **options):
    return mine.run(mine.Options(source=scripted.path, name="calc-history", dest=tmp_path / "ds" / "calc-history",
                                 cache_dir=tmp_path / "cache", **options))


@pytest.fixture(scope="module")
def mined(scripted, tmp_path_factory):
    return _mine(scripted, tmp_path_factory.mktemp("mined"))


def test_every_skip_reason_is_counted_exactly(mined):
    assert mined.manifest["skipped"] == SKIPPED
    assert mined.manifest["commits"] == 18 and mined.manifest["counts"]["queries"] == 6
    assert mined.manifest["filter_order"] == ["merge", "root", "bot", "revert", "reverted", "cherry_pick",
                                              "release", "short_message", "test_only", "docs_only",
                                              "no_source_change", "tangled"]
    # every reason counted is a filter's or one the board's set line reads after them (report/set_manifest.py)
    assert list(mined.manifest["skipped"]) == [*mined.manifest["filter_order"], *mine.AFTER_FILTERS,
                                               "gold_spans_not_indexed"]


def test_gold_is_the_old_side_lines_in_the_parent_snapshot(scripted, mined):
    names = {sha: name for name, sha in scripted.shas.items()}
    got = {}
    for q in mined.queries:
        parent = scripted.git("rev-parse", f"{q.meta['commit']}^1")
        prefix = f"calc@{parent[:8]}/"
        assert q.meta["scope"] == prefix and q.meta["base_commit"] == parent
        assert all(g.path.startswith(prefix) for g in q.gold)
        got[names[q.meta["commit"]]] = [(g.path[len(prefix):], g.start, g.end) for g in q.gold]
    assert got == GOLD  # oldest first, as walked
    assert list(got) == list(GOLD)
    assert sorted(mined.manifest["corpus_sources"]) == mined.manifest["corpus_sources"]
    assert mined.manifest["corpus_sources"] == sorted(
        f"git:{scripted.path.resolve()}@{scripted.git('rev-parse', scripted.shas[n] + '^1')}" for n in GOLD)
    assert mined.manifest["scoped"] is True


def test_query_is_the_message_without_trailers_with_its_date(scripted, mined):
    by_name = {n: q for q in mined.queries for n, sha in scripted.shas.items() if q.meta["commit"] == sha}
    div = by_name["div_guard"]
    assert div.query == DIV_QUERY
    assert div.qid == f"calc@{scripted.shas['div_guard'][:12]}" and div.kind == "commit" and div.repo == "calc"
    assert div.meta["date"] == "2022-12-29T10:00:00+00:00" and div.meta["year"] == 2022
    assert by_name["binary"].meta["date"] == "2023-01-14T10:00:00+00:00" and by_name["binary"].meta["year"] == 2023
    assert mined.manifest["counts"]["per_year"] == {"2022": 1, "2023": 5}


def test_already_localized_queries_name_a_gold_file_or_symbol(scripted, mined):
    flags = {n: (q.meta["already_localized"], q.meta["localized"], q.meta["localized_by"])
             for q in mined.queries for n, sha in scripted.shas.items() if q.meta["commit"] == sha}
    assert flags["names_file"] == (True, "already_localized", {"files": ["web/app.js"], "symbols": []})
    assert flags["floats"] == (True, "already_localized", {"files": [], "symbols": ["add"]})
    for name in ("div_guard", "exact", "rename", "binary"):
        assert flags[name] == (False, "not_localized", {"files": [], "symbols": []}), name
    assert mined.manifest["counts"]["already_localized"] == 2
    assert mined.manifest["strata"] == {"year": "year", "localized": "localized"}


def test_range_limit_and_options(scripted, tmp_path):
    qs = _mine(scripted, tmp_path, since="2023-01-01", limit=2)
    skipped = qs.manifest["skipped"]
    assert skipped["root"] == 0 and skipped["bot"] == 0 and skipped["over_limit"] == 3
    assert [q.meta["commit"] for q in qs.queries] == [scripted.shas["rename"], scripted.shas["binary"]]
    keep = _mine(scripted, tmp_path, keep_tests=True, keep_docs=True, until="2023-01-11")
    assert keep.manifest["skipped"]["test_only"] == 0 and keep.manifest["skipped"]["docs_only"] == 0
    tests_q = next(q for q in keep.queries if q.meta["commit"] == scripted.shas["test_only"])
    docs_q = next(q for q in keep.queries if q.meta["commit"] == scripted.shas["docs_only"])
    assert [(g.path.split("/", 1)[1], g.start, g.end) for g in tests_q.gold] == [("tests/test_ops.py", 5, 5)]
    assert [(g.path.split("/", 1)[1], g.start, g.end) for g in docs_q.gold] == [("README.md", 3, 3)]


def test_a_range_without_commits_is_one_line(scripted, tmp_path):
    with pytest.raises(UserError, match=r"no commit on HEAD in since=2030-01-01"):
        _mine(scripted, tmp_path, since="2030-01-01")
    with pytest.raises(UserError, match=r"since='2023-02-01' is not before until='2023-01-01'"):
        _mine(scripted, tmp_path, since="2023-02-01", until="2023-01-01")
    with pytest.raises(UserError, match=r"max_files=0: must be at least 1"):
        _mine(scripted, tmp_path, max_files=0)


def test_a_run_searches_each_parent_snapshot_and_reports_the_declared_strata(mined, tmp_path):
    from hermes_eval.api import run
    from hermes_eval.config.compose import compose
    from hermes_eval.querysets.store import save_queryset

    save_queryset(mined, tmp_path / "ds" / mined.name)
    out = run(compose(["queryset=imported", f"queryset.name={mined.name}", "corpus=imported", "retriever=bm25",
                       "chunker=lines", f"paths.datasets={tmp_path / 'ds'}", f"paths.runs={tmp_path / 'runs'}",
                       f"paths.cache={tmp_path / 'cache'}", "bootstrap=50", "warmup=0", "+hygiene.tokenizer=approx",
                       "progress=off"]))
    assert out.status == "ok", out.record.get("error")
    strata = out.record["strata"]
    assert strata["year"]["2022"]["queries"] == 1 and strata["year"]["2023"]["queries"] == 5
    assert strata["localized"]["already_localized"]["queries"] == 2
    assert strata["localized"]["not_localized"]["queries"] == 4
    assert len(out.record["snapshots"]) == 6
    hits = [line.split()[:3] for line in (out.run_dir / "run.trec").read_text().splitlines()]
    hits = [(qid, doc) for qid, _, doc in hits if doc != "hermes-eval:no-results"]
    assert len({qid for qid, _ in hits}) >= 4
    for qid, doc in hits:  # every hit lies in its own query's snapshot
        assert doc.startswith(next(q.meta["scope"] for q in mined.queries if q.qid == qid))
    # each query's declared strata are columns of per_query.parquet, and the board breaks its metric down by them
    import pandas as pd

    from hermes_eval.cli.main import main

    per_query = pd.read_parquet(out.run_dir / "per_query.parquet").set_index("qid")
    for q in mined.queries:
        assert per_query.loc[q.qid, "stratum_year"] == str(q.meta["year"])
        assert per_query.loc[q.qid, "stratum_localized"] == q.meta["localized"]
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "board")]) == 0
    md = (tmp_path / "board" / "leaderboard.md").read_text()
    year = md.split("**Per year: ", 1)[1].split("\n\n", 2)[1]
    assert year.splitlines()[0].startswith("| run | 2022 (n=1) | 2023 (n=5) |")
    assert "**Per localized: " in md and "already\\_localized (n=2)" in md and "not\\_localized (n=4)" in md


def test_gold_in_files_the_corpus_does_not_index_is_dropped_and_counted(tmp_path):
    """Two commits change a file over the corpus's 1 MB limit (not indexed): one changes only it (no gold left:
    ``gold_not_indexed`` 1), one also changes an indexed file (its two spans in the big file dropped:
    ``gold_spans_not_indexed`` 1 + 2 = 3), counts derived by hand."""
    from scripted_repo import Scripted, day

    big = "".join(f"VALUE_{i} = {i}  # {'x' * 60}\n" for i in range(14_000))  # ~1.1 MB of Python
    assert len(big.encode()) > 1_000_000
    small = "def area(r):\n    return 3.14 * r * r\n\n\ndef perimeter(r):\n    return 2 * 3.14 * r\n"
    r = Scripted(tmp_path / "geo")
    r.commit("base", day(1), {"geo/table.py": big, "geo/circle.py": small}, "Add the circle helpers and a table")
    fifth = big.replace("VALUE_5 = 5", "VALUE_5 = 50")
    r.commit("only_big", day(2), {"geo/table.py": fifth}, "Correct the fifth value of the table")
    edited = fifth.replace("VALUE_7 = 7", "VALUE_7 = 70").replace("VALUE_900 = 900", "VALUE_900 = 9000")
    r.commit("both", day(3), {"geo/table.py": edited, "geo/circle.py": small.replace("3.14", "math.pi")},
             "Use math.pi for the circle and fix table values")
    qs = mine.run(mine.Options(source=r.path, name="geo", dest=tmp_path / "ds" / "geo", cache_dir=tmp_path / "cache"))
    assert qs.manifest["skipped"]["gold_not_indexed"] == 1
    assert qs.manifest["skipped"]["gold_spans_not_indexed"] == 3
    (q,) = qs.queries
    assert q.meta["commit"] == r.shas["both"]
    assert [(g.path.split("/", 1)[1], g.start, g.end) for g in q.gold] == [("geo/circle.py", 2, 2), ("geo/circle.py", 6, 6)]
