"""The tied column of every board: letters from all-pairs tests on the ranking metric, the same in
markdown and HTML, and an arm that equals another shares its letter."""
from __future__ import annotations

import re
from dataclasses import replace

from fakeruns import BASELINE, HYBRID, queries, write_arm

from hermes_eval.cli.main import main
from hermes_eval.judge.tied_groups import tied_groups


def test_tied_letters_on_both_boards(tmp_path):
    import pandas as pd

    qs = queries(n=60, plant=False)
    twin = replace(BASELINE, system="rank_bm25_twin", config_hash="dddd000000000004")  # same hits, same seed
    for arm in (BASELINE, twin, HYBRID):
        write_arm(tmp_path / "runs", arm, qs, 0)
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "leaderboard.md").read_text()
    rows = [ln for ln in md.splitlines() if re.match(r"\| \d+ \|", ln)]
    letters = {ln.split(" | ")[2].replace(" **(baseline)**", ""): ln.split(" | ")[1] for ln in rows}
    assert letters["rank\\_bm25\\_twin"] == letters["rank\\_bm25"] != letters["rank\\_bm25+exact w\\_dense=0.5"]
    assert "Holm over all 3 pairs" in md and "2 groups among 3 arms" in md
    # the letters are the tied_groups of the per-query values, in the board's order
    frames = {p.parent.name: pd.read_parquet(p) for p in (tmp_path / "runs").glob("*/per_query.parquet")}
    metric = re.search(r"Ranked by \*\*(.+?)\*\*", md).group(1).replace("\\_", "_")
    order = sorted(frames, key=lambda k: -frames[k][metric].mean())
    want = tied_groups(order, {k: f.sort_values("qid")[metric].to_numpy() for k, f in frames.items()})
    assert sorted(letters.values()) == sorted(want.letters.values())
    html = (tmp_path / "rep" / "leaderboard.html").read_text()
    assert html.count('<td class="t tied"') == 3 and "read the order within a group as a tie" in html


def test_misses_by_cause_add_up_on_both_boards(tmp_path):
    import pandas as pd

    from hermes_eval.report.head_to_head import CAUSES

    qs = queries(n=40, plant=False)
    for arm in (BASELINE, HYBRID):
        write_arm(tmp_path / "runs", arm, qs, 0)
    assert main(["leaderboard", "--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "leaderboard.md").read_text()
    section = md.split("**Misses at 10 by cause**")[1]
    rows = [ln for ln in section.splitlines() if ln.startswith("| lines/")][:2]
    for ln in rows:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        # the causes some arm has (a cause no arm has gets no column), then the past-budget column
        n, hits, counts = int(cells[1]), int(cells[2]), [int(c) for c in cells[3:-1]]
        assert len(counts) <= len(CAUSES)
        assert n == 40 and hits + sum(counts) == n
        arm = {"lines/rank\\_bm25": BASELINE, "lines/rank\\_bm25+exact w\\_dense=0.5": HYBRID}[cells[0]]
        run = next((tmp_path / "runs").glob(f"*{arm.config_hash}/per_query.parquet"))
        assert hits == int((pd.read_parquet(run)["recall@10"] > 0).sum())
    html = (tmp_path / "rep" / "leaderboard.html").read_text()
    assert "Misses at 10 by cause" in html and html.count('<table class="misses">') == 1
    # a cause no arm misses for has no column on either board, and is named under the table instead
    unseen = md.split("No arm misses for: ")[1].split(".\n")[0].split("; ")
    head = html.split('<table class="misses">')[1].split("</thead>")[0]
    assert unseen and all(f"<th>{c}</th>" not in head and md_cause_absent(section, c) for c in unseen)
    assert f"No arm misses for: {'; '.join(unseen)}." in html


def md_cause_absent(section: str, cause: str) -> bool:
    return cause not in next(ln for ln in section.splitlines() if ln.startswith("| run |"))
