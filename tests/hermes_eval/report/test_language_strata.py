"""Per-language strata on the boards: a query's language is its gold files' language (from the
paths), shown per arm in the markdown and HTML leaderboards with the chunkers' fallbacks named."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from fakeruns import BASELINE, HYBRID, Arm, Query, write_arm

from hermes_eval.corpus.languages import gold_language
from hermes_eval.judge.strata import stratum_means

CAST = Arm("cast", "exact", ("dense",), 1.0, 0.6, 20.0, "eeee000000000005",
           fallback={"go": "HeuristicChunker", "markdown": "HeuristicChunker"})
GOLD = ["alpha/router.go", "alpha/lib.rs", "beta/index.ts", "beta/guide.md", "alpha/api.py", "beta/cli.js"]


@pytest.mark.parametrize("paths, language", [
    (["a/b.py"], "python"), (["x.go", "y/z.go"], "go"), (["README.md", "src/lib.rs"], "mixed"),
    (["web/app.tsx", "web/util.ts"], "typescript"), ([], "(none)"), (["LICENSE"], "other"),
    (["proj@1234abcd/pkg/a.py"], "python"),
])
def test_gold_language(paths, language):
    assert gold_language(paths) == language


def test_stratum_means_per_language():
    per_query = {"recall@10": {"a": 1.0, "b": 0.0, "c": 0.5}, "ndcg@10": {"a": 0.5, "b": 0.0, "c": 1.0}}
    out = stratum_means(per_query, {"a": "go", "b": "go", "c": "rust"})
    assert out == {"go": {"queries": 2, "ndcg@10": 0.25, "recall@10": 0.5},
                   "rust": {"queries": 1, "ndcg@10": 1.0, "recall@10": 0.5}}


@pytest.fixture(scope="module")
def polyglot_reports(tmp_path_factory):
    from hermes_eval.report.publish import build_reports

    root = tmp_path_factory.mktemp("poly")
    qs = [Query(f"q{i:02d}", f"find helper {i}", ("alpha", "beta")[i % 2], GOLD[i % len(GOLD)]) for i in range(30)]
    for k, arm in enumerate((BASELINE, HYBRID, CAST)):
        write_arm(root / "runs", arm, qs, seed=k)
    build_reports(root / "runs", root / "reports")
    return root


def test_markdown_board_has_a_language_table_with_counts_and_fallbacks(polyglot_reports):
    md = (polyglot_reports / "reports" / "leaderboard.md").read_text()
    languages = md.split("**Per language:")[1]
    head = next(line for line in languages.splitlines() if line.startswith("| run | ") and "(n=" in line)
    assert {"python (n=5)", "go (n=5)", "rust (n=5)", "typescript (n=5)", "markdown (n=5)",
            "javascript (n=5)"} <= {c.strip() for c in head.strip("|").split("|")}
    assert "**Per language:" in md
    assert r"cast: go, markdown cut by its fallback \(HeuristicChunker\)" in md


def test_language_means_are_the_per_query_means(polyglot_reports):
    from hermes_eval.record.folder import RunFiles
    from hermes_eval.report.breakdown import repo_table

    run_dir = next((polyglot_reports / "runs").glob("*eeee000000000005"))
    files = {CAST.config_hash: RunFiles(run_dir)}
    table = repo_table({CAST.config_hash: "cast/exact"}, files, "recall@10", by="language")
    df = pd.read_parquet(run_dir / "per_query.parquet")
    want = df.groupby("language")["recall@10"].mean()
    got = dict(zip([s for s, _ in table.repos], table.rows[0][2]))
    assert got == pytest.approx(want.to_dict())
    # each cell's CI is the records' own bootstrap over that stratum's queries, and brackets its mean
    from hermes_eval.judge.bootstrap import summarize

    for (stratum, _n), mean, ci in zip(table.repos, table.rows[0][2], table.cis[0]):
        s = summarize(list(df.loc[df.language == stratum, "recall@10"].astype(float)), seed=0, n_resamples=1000)
        assert ci == (s["ci_low"], s["ci_high"]) and ci[0] <= mean <= ci[1]


def test_language_cells_show_their_ci_on_both_boards(polyglot_reports):
    md = (polyglot_reports / "reports" / "leaderboard.md").read_text()
    table = md.split("**Per language:")[1].split("\n\n")[1]
    body = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| run")]
    assert body and all(re.search(r"\d\.\d{3}\** \[\d\.\d{3}, \d\.\d{3}\]", line) for line in body)
    html = (polyglot_reports / "reports" / "leaderboard.html").read_text()
    section = html.split("Per language: ")[1].split("</table>")[0]
    assert section.count('<span class="ci">[') >= 6


def test_html_board_has_the_language_table(polyglot_reports):
    html = (polyglot_reports / "reports" / "leaderboard.html").read_text()
    assert "Per language: " in html and "Per repository: " in html
    assert "a query&#39;s language is the language of its gold file(s)".lower() in html.lower() or \
        "language of its gold file(s)" in html
    assert "cast: go, markdown cut by its fallback (HeuristicChunker)" in html


def test_runs_without_a_language_column_show_no_language_table(tmp_path):
    from hermes_eval.report.publish import build_reports

    qs = [Query(f"q{i}", f"find {i}", "alpha", "alpha/a.py") for i in range(12)]
    run_dir = write_arm(tmp_path / "runs", BASELINE, qs)
    df = pd.read_parquet(run_dir / "per_query.parquet").drop(columns=["language"])
    df.to_parquet(run_dir / "per_query.parquet", index=False)
    build_reports(tmp_path / "runs", tmp_path / "reports")
    assert "Per language" not in (tmp_path / "reports" / "leaderboard.md").read_text()
