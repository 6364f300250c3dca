"""Published anchors beside our numbers (leaderboard --anchors): the matching arm's value, its CI
and the difference on both boards; extra columns; twins noted; a bad anchors file is one line."""
from __future__ import annotations

import pytest
from fakeruns import BASELINE, DENSE_AST, queries, write_arm

from hermes_eval.cli.main import main
from hermes_eval.core.errors import UserError
from hermes_eval.report.anchors import load_anchors

ANCHORS = f"""columns: [file_recall@5]
anchors:
  - querysets: [toy-qs]
    published: "Someone's paper: BM25"
    metric: ndcg@10
    value: 0.25
    system: {BASELINE.system}
    source: a public leaderboard
    note: their corpus is bigger
  - querysets: [toy-qs]
    published: "A model nobody ran here"
    metric: ndcg@10
    value: 0.5
    system: no-such-arm
    source: elsewhere
"""


def test_boards_show_anchors_with_our_value_and_difference(tmp_path, capsys):
    import json

    qs = queries(plant=False)
    write_arm(tmp_path / "runs", BASELINE, qs, 0, hygiene={"twin_gold": 4, "duplicate_docs": 9})
    write_arm(tmp_path / "runs", DENSE_AST, qs, 1)
    (tmp_path / "a.yaml").write_text(ANCHORS)
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "rep"),
                 "--anchors", str(tmp_path / "a.yaml")]) == 0
    md = (tmp_path / "rep" / "leaderboard.md").read_text()
    rec = next(json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/record.json")
               if json.loads(p.read_text())["system"] == BASELINE.system)
    ours = rec["metrics"]["ndcg@10"]["mean"]
    row = next(line for line in md.splitlines() if line.startswith("| Someone"))
    assert f"{ours:.3f} [" in row and f"{ours - 0.25:+.3f}" in row and row.endswith("| [1] |")
    assert "1. their corpus is bigger" in md.splitlines()  # each note once, below the table
    assert "not run" in next(line for line in md.splitlines() if line.startswith("| A model nobody"))
    assert "file\\_recall@5" in next(line for line in md.splitlines() if line.startswith("| \\#"))
    assert "Identical twins" in md and "4 queries, 9 duplicate documents" in md
    html = (tmp_path / "rep" / "leaderboard.html").read_text()
    assert "Published anchors beside our numbers" in html and "their corpus is bigger" in html


def test_bad_anchor_names_the_entry_and_field(tmp_path):
    (tmp_path / "a.yaml").write_text("anchors:\n  - querysets: [x]\n    published: p\n    metric: ndcg@10\n"
                                     "    value: high\n    system: s\n    source: y\n")
    with pytest.raises(UserError, match=r"anchors\[0\]: field 'value' must be a number"):
        load_anchors(tmp_path / "a.yaml")


def test_an_anchor_averaged_over_repositories_is_met_by_our_mean_of_repository_means(tmp_path):
    import pandas as pd

    qs = queries(plant=False)[:22]  # 11 alpha and 11 beta queries, before the arm's hits differ by repo
    write_arm(tmp_path / "runs", BASELINE, qs, 0)
    (tmp_path / "a.yaml").write_text(ANCHORS.split("  - querysets: [toy-qs]\n    published: \"A model")[0]
                                     .replace("    note: their corpus is bigger\n",
                                              "    note: their corpus is bigger\n    average: repos\n"))
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "rep"),
                 "--anchors", str(tmp_path / "a.yaml")]) == 0
    pq = pd.read_parquet(next((tmp_path / "runs").glob("*/per_query.parquet")))
    by_repo = pq.groupby("repo")["ndcg@10"].mean()
    row = next(line for line in (tmp_path / "rep" / "leaderboard.md").read_text().splitlines()
               if line.startswith("| Someone"))
    assert f"{by_repo.mean():.3f} [" in row and "mean of the repositories' means" in row
    md = (tmp_path / "rep" / "leaderboard.md").read_text()
    table = md.split("**Per repository: ndcg@10**")[1]  # the per-repository means the anchor averages
    assert f"{by_repo['alpha']:.3f}" in table and f"{by_repo['beta']:.3f}" in table
    (tmp_path / "b.yaml").write_text((tmp_path / "a.yaml").read_text().replace("average: repos", "average: files"))
    with pytest.raises(UserError, match=r"anchors\[0\]: field 'average' must be one of queries, repos"):
        load_anchors(tmp_path / "b.yaml")
