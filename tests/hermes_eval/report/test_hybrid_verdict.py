"""The hybrid-against-BM25 answer: the right two arms, the difference and p-value recomputed from the
per-query values by an independent implementation (scipy's paired t-test), a stratum's groups tested on
their own queries with Holm across them, and both the board section and the cross-set table written."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from fakeruns import BASELINE, HYBRID, grid
from scipy import stats

from hermes_eval.report.md_cell import md_cell
from hermes_eval.report.hybrid_verdict import BETTER, NOT_SEPARABLE, WORSE, arms, hybrid_verdict
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.publish import build_reports
from hermes_eval.report.table import Board

METRIC = "file_mrr@10"


def board(rows: list[tuple[str, str]]) -> Board:
    """A board whose rows (config hash, legs) are ranked as listed; its baseline the first BM25-only one."""
    df = pd.DataFrame(rows, columns=["config_hash", "legs"])
    base = next(h for h, legs in rows if legs == "sparse")
    return Board("qs", df, METRIC, False, base, "", (METRIC,), None)


def frame(values, strata=None) -> pd.DataFrame:
    out = pd.DataFrame({"qid": [f"q{i:02d}" for i in range(len(values))], METRIC: values})
    if strata is not None:
        out["stratum_localized"] = strata
    return out


def test_the_best_hybrid_is_set_against_the_best_bm25_arm():
    b = board([("d", "dense"), ("h2", "sparse,dense"), ("s1", "sparse"), ("h1", "sparse,dense"), ("s2", "sparse")])
    assert arms(b) == ("s1", "h2")
    assert arms(board([("s1", "sparse"), ("d", "dense")])) is None  # no hybrid: no answer


def test_the_difference_its_test_and_each_stratum_are_computed_on_paired_queries():
    rng = np.random.default_rng(3)
    n = 60
    bm25 = rng.uniform(0, 1, n)
    strata = np.array(["already_localized"] * 20 + ["not_localized"] * 40)
    hybrid = np.clip(bm25 + np.where(strata == "not_localized", 0.25, -0.02) + rng.normal(0, 0.1, n), 0, 1)
    # the hybrid's table in another query order: pairing is by qid, not by row
    frames = {"s": frame(bm25, strata), "h": frame(hybrid, strata).iloc[::-1].reset_index(drop=True)}
    v = hybrid_verdict(board([("h", "sparse,dense"), ("s", "sparse")]), frames, ReportSettings())
    assert (v.bm25, v.hybrid, v.metric) == ("s", "h", METRIC)
    assert v.overall.n == n and v.overall.delta == pytest.approx(np.mean(hybrid - bm25), abs=1e-12)
    assert v.overall.p_value == pytest.approx(stats.ttest_rel(bm25, hybrid).pvalue, rel=1e-9)
    assert v.overall.ci[0] < v.overall.delta < v.overall.ci[1] and v.overall.verdict == BETTER
    (name, groups), = v.strata
    assert name == "localized" and [(c.group, c.n) for c in groups] == [("already_localized", 20), ("not_localized", 40)]
    loc, rest = groups
    m = strata == "already_localized"
    assert loc.p_value == pytest.approx(stats.ttest_rel(bm25[m], hybrid[m]).pvalue, rel=1e-9)
    ps = sorted([loc.p_value, rest.p_value])
    assert sorted([loc.p_holm, rest.p_holm]) == pytest.approx([min(1, 2 * ps[0]), max(min(1, 2 * ps[0]), ps[1])])
    assert rest.verdict == BETTER and loc.verdict == NOT_SEPARABLE


def test_a_worse_hybrid_and_identical_arms_are_called_so():
    x = np.linspace(0, 1, 30)
    worse = hybrid_verdict(board([("s", "sparse"), ("h", "sparse,dense")]), {"s": frame(x), "h": frame(x * 0.5)},
                           ReportSettings())
    assert worse.overall.verdict == WORSE and worse.overall.delta < 0
    same = hybrid_verdict(board([("s", "sparse"), ("h", "sparse,dense")]), {"s": frame(x), "h": frame(x)},
                          ReportSettings())
    assert same.overall.verdict == NOT_SEPARABLE and same.overall.p_value == 1.0 and same.overall.ci == (0.0, 0.0)


def test_the_board_and_the_cross_set_table_say_it(tmp_path):
    grid(tmp_path / "runs")
    build_reports(tmp_path / "runs", tmp_path / "board")
    md = (tmp_path / "board" / "leaderboard.md").read_text()
    section = md.split("**Hybrid against BM25 on ")[1]
    metric = section.split("**")[0].replace("\\", "")
    escaped = metric.replace("_", "\\_")
    assert f"Ranked by **{escaped}**" in md  # the board's ranking metric
    assert f"{md_cell('lines/' + HYBRID.system)} against {md_cell('lines/' + BASELINE.system)}," in section
    base = pd.read_parquet(next((tmp_path / "runs").glob(f"*{BASELINE.config_hash}")) / "per_query.parquet")
    hyb = pd.read_parquet(next((tmp_path / "runs").glob(f"*{HYBRID.config_hash}")) / "per_query.parquet")
    delta = (hyb.set_index("qid")[metric] - base.set_index("qid")[metric]).mean()
    assert f"| all queries | {len(base)} | " in section and f"{delta:+.3f} [" in section
    assert "## Hybrid against BM25, every set" not in md  # one set: its section says it all
