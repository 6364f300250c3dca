"""`hermes-eval compare`: the paired difference matches an independent count, misses are sorted by
cause, queries are shown with their results, and runs that cannot be compared are refused in one line."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fakeruns import BASELINE, DENSE_AST, HYBRID, queries, write_arm
from hermes_eval.core.errors import UserError
from hermes_eval.report.head_to_head import miss_cause, load_arm, paired_frame, effect
from hermes_eval.report.head_to_head_md import render


@pytest.fixture
def runs(tmp_path):
    qs = queries(plant=False)
    return {arm.system: write_arm(tmp_path / "runs", arm, qs, seed=k) for k, arm in enumerate((BASELINE, HYBRID, DENSE_AST))}


def test_the_overall_effect_matches_an_independent_paired_count(runs):
    a, b = load_arm(runs[BASELINE.system]), load_arm(runs[HYBRID.system])
    frame = paired_frame(a, b, "ndcg@10")
    pa = pd.read_parquet(runs[BASELINE.system] / "per_query.parquet").set_index("qid")["ndcg@10"]
    pb = pd.read_parquet(runs[HYBRID.system] / "per_query.parquet").set_index("qid")["ndcg@10"]
    d = (pb - pa.reindex(pb.index)).to_numpy()
    e = effect("all", frame["a"].to_numpy(float), frame["b"].to_numpy(float))
    assert e.delta == pytest.approx(d.mean()) and (e.b_wins, e.a_wins, e.ties) == ((d > 0).sum(), (d < 0).sum(), (d == 0).sum())
    assert e.p == pytest.approx(stats.ttest_rel(pb.reindex(pb.index), pa.reindex(pb.index)).pvalue, rel=1e-6)
    assert e.ci[0] <= e.delta <= e.ci[1] and e.delta > 0  # the hybrid puts gold first far more often


def test_misses_are_sorted_by_cause(runs, tmp_path):
    arm = load_arm(runs[BASELINE.system])
    qid = next(q for q, r in arm.files.rankings.items() if r[0] != next(iter(arm.files.qrels[q])))  # a miss
    assert miss_cause(arm, qid, k=10) == "gold ranked below k"  # fakeruns place a missed gold at rank 12
    assert miss_cause(arm, qid, k=20) is None
    gold = next(iter(arm.files.qrels[qid]))
    ranking = [d for d in arm.files.rankings[qid] if d != gold]
    (arm.run_dir / "run.trec").write_text("".join(f"{qid} Q0 {d} {i} {1.0 / i:.6f} t\n" for i, d in
                                                  enumerate(ranking, start=1)))
    again = load_arm(arm.run_dir)
    assert miss_cause(again, qid, k=50) == "gold never retrieved"
    same_file = gold.rsplit(":", 1)[0] + ":100-130"  # the gold file, another chunk
    (arm.run_dir / "run.trec").write_text(f"{qid} Q0 {same_file} 1 1.0 t\n")
    assert miss_cause(load_arm(arm.run_dir), qid, k=10) == "right file, wrong chunk"


def test_a_chunk_holding_the_query_text_is_a_leak_and_a_gold_past_the_budget_is_counted(runs):
    from hermes_eval.report.head_to_head import PAST_BUDGET, miss_causes

    arm = load_arm(runs[BASELINE.system])
    qid = next(q for q, r in arm.files.rankings.items() if r[0] != next(iter(arm.files.qrels[q])))  # a miss
    first = arm.files.rankings[qid][0]
    path, lines = first.rsplit(":", 1)
    start = int(lines.split("-")[0])
    df = pd.read_parquet(arm.run_dir / "per_query.parquet")
    df["leak_places"] = [json.dumps([f"{path}:{start + 2}-{start + 4}"] if q == qid else []) for q in df["qid"]]
    hit = next(q for q, r in arm.files.rankings.items() if r[0] in arm.files.qrels[q])  # gold first
    df["budget_recall@2k"] = [0.0 if q in (hit, qid) else 1.0 for q in df["qid"]]
    df.to_parquet(arm.run_dir / "per_query.parquet", index=False)
    again = load_arm(arm.run_dir)
    assert miss_cause(again, qid, k=10) == "outranked by a leak"  # an overlapping top chunk holds its text
    assert miss_cause(again, hit, k=10) is None
    counts = miss_causes(again, [qid, hit], k=10)
    assert counts["outranked by a leak"] == 1 and counts[PAST_BUDGET] == 1  # only a hit counts past the budget
    df["leak_places"] = [json.dumps([f"{path}:{start + 100}-{start + 104}"] if q == qid else []) for q in df["qid"]]
    df.to_parquet(arm.run_dir / "per_query.parquet", index=False)
    assert miss_cause(load_arm(arm.run_dir), qid, k=10) == "gold ranked below k"  # a leak elsewhere in the file


def test_the_report_shows_strata_causes_and_both_arms_results(runs):
    text = render(runs[BASELINE.system], runs[HYBRID.system], top=2)
    assert "## All queries" in text and "## By repo" in text and "| alpha |" in text and "| beta |" in text
    assert "## Misses at 10 by cause" in text and "| gold ranked below k |" in text
    assert "## Where B is better most (2 of " in text and "first gold at rank 12 / 1" in text
    assert "✓ " in text and "✗ " in text and "gold files: " in text


def test_runs_that_cannot_be_compared_are_refused_in_one_line(runs, tmp_path):
    other = write_arm(tmp_path / "other", HYBRID, queries(plant=False), queryset="another-qs")
    with pytest.raises(UserError, match="query set 'another-qs', but .* ran 'toy-qs'"):
        render(runs[BASELINE.system], other)
    fewer = write_arm(tmp_path / "fewer", HYBRID, queries(n=20, plant=False))
    with pytest.raises(UserError, match="4 queries are in only one of the two runs"):
        render(runs[BASELINE.system], fewer)
    with pytest.raises(UserError, match="no per-query 'ndcg@99'; use --metric with one of"):
        render(runs[BASELINE.system], runs[HYBRID.system], metric="ndcg@99")
    (runs[HYBRID.system] / "record.json").write_text('{"cut": ')
    with pytest.raises(UserError, match="unreadable run, nothing to compare"):
        render(runs[BASELINE.system], runs[HYBRID.system])


def test_the_cli_writes_markdown_and_errors_in_one_line(runs, tmp_path):
    cmd = [sys.executable, "-m", "hermes_eval.cli.main", "compare", str(runs[BASELINE.system]),
           str(runs[DENSE_AST.system]), "--by", "language", "--out", str(tmp_path / "c.md")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c.md").read_text().startswith("# compare on ndcg@10: B − A")
    bad = subprocess.run(cmd[:5] + [str(tmp_path / "nope")], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "not a run folder" in bad.stderr


def test_a_declared_stratum_breaks_the_difference_down_and_an_unknown_one_is_refused(runs):
    """``--by localized`` (or ``stratum_localized``) reads the declared stratum's column: the per-group
    differences are the groups' mean differences; a column the runs lack is refused, naming those they have."""
    for system in (BASELINE.system, HYBRID.system):
        path = runs[system] / "per_query.parquet"
        df = pd.read_parquet(path)
        df["stratum_localized"] = ["already_localized" if i % 3 == 0 else "not_localized" for i in range(len(df))]
        df.to_parquet(path)
    a = pd.read_parquet(runs[BASELINE.system] / "per_query.parquet").set_index("qid")
    b = pd.read_parquet(runs[HYBRID.system] / "per_query.parquet").set_index("qid")
    diff = (b["ndcg@10"] - a["ndcg@10"]).groupby(a["stratum_localized"]).mean()
    for by in ("localized", "stratum_localized"):
        text = render(runs[BASELINE.system], runs[HYBRID.system], by=(by,), top=0)
        assert f"## By {by}" in text
        for group, mean in diff.items():
            cell = group.replace("_", "\\_")  # markdown-escaped
            row = next(line for line in text.splitlines() if line.startswith(f"| {cell} |"))
            assert f"{mean:+.4f}" in row
    with pytest.raises(UserError, match="--by nope: these runs have no 'nope' column; use one of .*stratum_localized"):
        render(runs[BASELINE.system], runs[HYBRID.system], by=("nope",))
