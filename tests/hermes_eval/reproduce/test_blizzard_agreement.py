"""BLIZZARD's Lucene baseline reproduced on the slice (tests/slices/blizzard): first-gold ranks as
``getFirstGoldRankClass`` gives them over the rankings Lucene 6.2.0 itself gave (lucene-6.2.0-rankings.tsv),
the package's definitions, the kind's entry (per-query table, board table, the values read for the anchors),
and the anchors checked against them."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hermes_eval.config.benchmarks import benchmark
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.querysets.readers.blizzard_package import Package
from hermes_eval.reproduce.anchor_check import check
from hermes_eval.reproduce.blizzard_agreement import (average_precision, first_gold_rank, found_indices, main,
                                                      run_project, top_metrics)
from hermes_eval.reproduce.kind import Request
from hermes_eval.reproduce.registry import reproduction
from tests.hermes_eval.querysets.importers.test_qs_blizzard import _lucene_rankings  # Lucene's own, read once

SLICE = Path(__file__).resolve().parents[2] / "slices" / "blizzard"
P = "tomcat70"


def test_agreement_ranks_follow_get_first_gold_rank_class():
    pkg = Package.open(SLICE)
    result, mapping, want = run_project(pkg, P), pkg.mapping(P), _lucene_rankings()
    for bug, ranked in want.items():
        gold = pkg.gold(P, bug)
        originals = [mapping[n] for n, _ in ranked]
        assert result.ranks[bug] == first_gold_rank(originals, gold)
    # over 31 of 1,841 files the ranks are not the package's; the comparison says so, bug by bug
    agreement = result.agreement()
    assert agreement["compared"] == 7 and agreement["identical"] + agreement["different"] == 7
    assert result.ranks["37509"] == 1 and result.package_ranks["37509"] == 1
    assert {b for b, *_ in result.disagreements()} == {b for b in want if result.ranks[b] != result.package_ranks[b]}


def test_rank_and_metric_definitions():
    gold = ["java/a/B.java", "docs/changelog.xml"]
    paths = ["/x/tomcat70/java/a/C.java", "/x/tomcat70/modules/java/a/B.java", "/x/tomcat70/java/a/B.java"]
    assert first_gold_rank(paths, gold) == 2  # endsWith, no folder boundary: another module's copy counts
    assert first_gold_rank(paths, None) == -1 and first_gold_rank(paths[:1], gold) == -1
    assert found_indices(paths, gold) == [2, 3]
    assert average_precision([2, 3]) == pytest.approx((1 / 2 + 2 / 3) / 2)  # divided by the 2 found, not |gold|
    assert average_precision([3, 3]) == pytest.approx(1 / 3)
    m = top_metrics({"1": [2, 3], "2": []}, ["1", "2", "3"])
    assert m == pytest.approx({"bugs": 3, "hit@10": 1 / 3, "map@10": (1 / 2 + 2 / 3) / 2 / 3, "mrr@10": 1 / 2 / 3})


def test_the_command_writes_its_report(tmp_path, capsys):
    assert main(["--package", str(SLICE), "--projects", P, "--out", str(tmp_path / "r.md")]) == 0
    text = (tmp_path / "r.md").read_text()
    assert "| tomcat70 | 31 | 7 | 7 |" in text and "Disagreements" in text


def _package_metrics() -> dict[str, float]:
    """The package's Hit@10, MAP@10 (BLIZZARD's getAP, transcribed) and MRR@10 over BR-ALL, straight from
    Baseline/Result and Goldset: dotted result paths ending with a dotted gold line."""
    pkg = Package.open(SLICE)
    results: dict[str, list[str]] = {}
    for line in (SLICE / "Baseline/Result/tomcat70.txt").read_text(encoding="utf-8").splitlines():
        bug, _, path = line.partition("\t")
        results.setdefault(bug.strip(), []).append(path.strip())
    bugs = (SLICE / "BR-Classes/tomcat70/BR-ALL.txt").read_text().split()
    hit = ap = rr = 0.0
    for bug in bugs:
        gold = [g.replace("/", ".").replace("\\", ".") for g in pkg.gold(P, bug) or []]
        found = sorted({i for i, p in enumerate(results.get(bug, [])[:10], start=1)
                        if any(p.replace("/", ".").endswith(g) for g in gold)})
        hit += bool(found)
        rr += 1 / found[0] if found else 0.0
        ap += sum((n + 1) / r for n, r in enumerate(found)) / len(found) if found else 0.0
    return {"file_hit@10": hit / len(bugs), "file_map_found@10": ap / len(bugs), "file_mrr@10": rr / len(bugs)}


@pytest.fixture(scope="module")
def outcome():
    record = benchmark("blizzard", CONF_DIR)
    return record, reproduction("blizzard_agreement")(Request(record, data=SLICE, options=(("projects", P),)))


def test_the_kinds_entry_gives_a_row_per_query_and_the_boards_table(outcome):
    _, out = outcome
    want, pkg = _lucene_rankings(), Package.open(SLICE)
    mapping = pkg.mapping(P)
    rows = {r["bug"]: r for r in out.per_query}
    assert set(rows) == set(want)
    for bug, ranked in want.items():
        assert rows[bug]["rank"] == first_gold_rank([mapping[n] for n, _ in ranked], pkg.gold(P, bug))
    same = sum(r["rank"] == r["package_rank"] for r in rows.values())
    assert 0 < same < 7  # over 31 of 1,841 files some ranks differ from the package's: the table must say so
    assert f"| tomcat70 | 31 | 7 | {same} | " in out.markdown and "**all**" not in out.markdown
    assert out.summary[P]["agreement"]["identical"] == same


def test_the_values_read_for_the_anchors_are_the_package_files(outcome):
    record, out = outcome
    want = _package_metrics()
    got = {p.metric: p for p in out.published}
    assert set(got) == set(want) and all(p.queryset == "blizzard-tomcat70-baseline" for p in got.values())
    for metric, value in want.items():
        assert got[metric].value == pytest.approx(value, abs=1e-12) and got[metric].file == "Baseline/Result/tomcat70.txt"
    assert 0 < want["file_map_found@10"] < want["file_hit@10"]


def test_anchors_agree_or_say_which_value_to_correct(outcome):
    record, out = outcome
    want = _package_metrics()
    # the record's anchors, with the values the slice gives (the full package gives the record's own)
    slice_record = dataclasses.replace(record, anchors=tuple(dataclasses.replace(a, value=round(want[a.metric], 3))
                                                             for a in record.anchors))
    checked = check(slice_record, out.published)
    assert [c.agrees for c in checked] == [True] * len(record.anchors) and len(checked) == 3
    wrong = dataclasses.replace(slice_record, anchors=(dataclasses.replace(slice_record.anchors[0],
                                                                           value=slice_record.anchors[0].value + 0.002),))
    (c,) = check(wrong, out.published)
    assert c.agrees is False and "conf/benchmarks/blizzard.yaml anchors, field 'value'" in c.line(wrong)
    unread = dataclasses.replace(record, anchors=(dataclasses.replace(record.anchors[0], metric="file_map"),))
    assert check(unread, out.published)[0].agrees is None
