"""Token-budget metrics against a hand-computed example."""
from __future__ import annotations

import numpy as np
import pytest

from hermes_eval.judge.budget import BudgetPacker, budget_line_coverage, budget_metrics, budget_recall, token_stats
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.core import Query, Span
from retrievers.chunk import Chunk
from retrievers.chunkers.tokens import count_tokens

LINES = ["def f(x):",         # def f ( x ) :  -> 6 tokens
         "    return x + 1",  # return x + 1   -> 4
         "",                  #                -> 0
         "def g():",          # def g ( ) :    -> 5
         "    pass"]          # pass           -> 1


def chunk(start: int, end: int) -> Chunk:
    return Chunk("a.py", start, end, "\n".join(LINES[start - 1:end]), "python")


A, B, C = chunk(1, 2), chunk(4, 5), chunk(1, 5)
LOOKUP = ChunkLookup([A, B, C])
# gold: all of g (a.py 4-5) and one line of a file that is never retrieved
QUERY = Query("q1", "what does g do", gold=(Span("a.py", 4, 5), Span("b.py", 1, 1)))


def test_line_token_counts_are_the_documented_ones():
    assert [count_tokens(line) for line in LINES] == [6, 4, 0, 5, 1]


@pytest.mark.parametrize("ranking, budget, lines, coverage, recall", [
    ([A.id, B.id], 12, {1, 2}, 0.0, 0.0),          # A costs 10; line 4 (5 tokens) no longer fits
    ([A.id, B.id], 15, {1, 2, 4}, 1 / 3, 1 / 2),   # B is cut after line 4
    ([A.id, B.id], 16, {1, 2, 4, 5}, 2 / 3, 1 / 2),
    ([C.id], 8, {1}, 0.0, 0.0),                    # a big first chunk is cut, not skipped
    ([A.id, C.id], 20, {1, 2, 3}, 0.0, 0.0),       # overlapping lines are paid for again
    ([], 4000, set(), 0.0, 0.0),
])
def test_packing_by_hand(ranking, budget, lines, coverage, recall):
    taken = BudgetPacker(LOOKUP).take(ranking, budget)
    assert taken == {("a.py", n) for n in lines}
    assert budget_line_coverage(QUERY, taken) == pytest.approx(coverage)
    assert budget_recall(QUERY, taken) == pytest.approx(recall)


def test_budget_metrics_names_and_values():
    empty = Query("q2", "nothing", gold=())
    out = budget_metrics([QUERY, empty], {"q1": [A.id, B.id]}, LOOKUP, budgets={"15": 15, "1k": 1000})
    assert sorted(out) == ["budget_line_coverage@15", "budget_line_coverage@1k",
                           "budget_recall@15", "budget_recall@1k"]
    assert out["budget_line_coverage@15"] == {"q1": pytest.approx(1 / 3), "q2": 0.0}
    assert out["budget_recall@1k"] == {"q1": 0.5, "q2": 0.0}


def test_default_budgets_are_1k_2k_4k():
    out = budget_metrics([QUERY], {"q1": [B.id]}, LOOKUP)
    assert {k.split("@")[1] for k in out} == {"1k", "2k", "4k"}
    assert out["budget_line_coverage@1k"]["q1"] == pytest.approx(2 / 3)


def test_token_stats():
    stats = token_stats([A, B, C])
    assert (stats["tokens_total"], stats["tokens_max"], stats["tokens_p50"]) == (32, 16, 10.0)


def test_more_budget_never_covers_less():
    chunks = [chunk(1, 2), chunk(4, 5), chunk(1, 5), chunk(2, 4)]
    lookup = ChunkLookup(chunks)
    packer = BudgetPacker(lookup)
    for ranking in ([c.id for c in chunks], [c.id for c in reversed(chunks)]):
        taken = [packer.take(ranking, b) for b in range(0, 40)]
        assert all(a <= b for a, b in zip(taken, taken[1:]))


def test_a_run_records_budget_metrics_and_token_sizes(make_cfg):
    import json

    from hermes_eval.api import execute_config

    out = execute_config(make_cfg("fusion.dense_weight=0.0", "chunker=heuristic"))
    assert out.status == "ok", out.record.get("error")
    rec = json.loads((out.run_dir / "record.json").read_text())
    m = rec["metrics"]
    for kind in ("budget_line_coverage", "budget_recall"):
        means = [m[f"{kind}@{b}"]["mean"] for b in ("1k", "2k", "4k")]
        assert 0 < means[0] <= means[1] <= means[2] <= 1
    assert rec["chunks"]["tokens_p50"] > 0 and rec["chunks"]["tokens_total"] > rec["chunks"]["count"]


def test_a_huge_single_identifier_line_never_fits_a_budget():
    long_line = "x = " + "identifier" * 20_000  # 200,000 characters, one identifier
    big = Chunk("b.py", 1, 2, f"{long_line}\npass", "python")
    small = Chunk("c.py", 1, 1, "pass", "python")
    packer = BudgetPacker(ChunkLookup([big, small]))
    assert packer.take([big.id, small.id], 4000) == set()  # packing stops at the line that does not fit
    assert packer.line_tokens(big.id) == [200_002, 1]


def test_token_stats_by_line_equal_whole_text_counts_on_real_code():
    """The per-line memo rests on counts being additive over lines: checked on real files with long
    runs, hashes and non-ASCII text, each counted whole by count_tokens."""
    import jinja2, click
    from pathlib import Path

    files = sorted(Path(jinja2.__file__).parent.glob("*.py")) + sorted(Path(click.__file__).parent.glob("*.py"))
    texts = [p.read_text() for p in files] + ["x = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'\r\n\u00e9t\u00e9 = InternationalizationExtension\n"]
    chunks = [Chunk(f"f{i}.py", 1, 2, t, "python") for i, t in enumerate(texts)]
    stats = token_stats(chunks + chunks[:3])  # repeated texts count again in the totals
    whole = [count_tokens(t) for t in texts] + [count_tokens(t) for t in texts[:3]]
    assert stats["tokens_total"] == sum(whole) and stats["tokens_max"] == max(whole)


def test_token_stats_over_snapshots_equal_whole_text_counts():
    """Versions of one file in several snapshots (``NAME@COMMIT/`` prefixes), each a few lines apart, and
    different files sharing lines: the per-file line memo gives each text its whole count."""
    import click
    from pathlib import Path

    base = Path(click.__file__).parent.joinpath("core.py").read_text()
    other = Path(click.__file__).parent.joinpath("types.py").read_text()
    versions = [base, base.replace("def ", "def  ", 3), base + "\nextra = 1\n", other]
    chunks = [Chunk(f"click@{i:08d}/click/{'types' if t is other else 'core'}.py", 1, 2, t, "python")
              for i, t in enumerate(versions)]
    chunks += [Chunk("plain/core.py", 1, 2, versions[1], "python"), Chunk("z@1/core.py", 1, 2, "x\n\ny = 2", "python")]
    stats = token_stats(chunks)
    whole = [count_tokens(c.text) for c in chunks]
    assert stats["tokens_total"] == sum(whole) and stats["tokens_max"] == max(whole)
    assert stats["tokens_p50"] == float(np.percentile(whole, 50))


def _take_line_by_line(packer, hits, budget):
    """The packing rule as README states it, one line at a time."""
    left, got = budget, set()
    for cid in hits:
        c = packer.lookup.by_id[cid]
        for offset, n in enumerate(packer.line_tokens(cid)):
            if n > left:
                return got
            left -= n
            got.add((c.path, c.start + offset))
    return got


def test_packing_by_prefix_sums_equals_line_by_line_packing():
    import random

    from hermes_eval.judge.budget import BudgetPacker
    from hermes_eval.judge.relevance import ChunkLookup
    from retrievers.chunk import Chunk

    rng = random.Random(7)
    words = ["x", "getValue()", "", "  ", "return a + b", "# ok", "0x1F"]
    chunks = []
    for i in range(40):
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(1, 150))]
        chunks.append(Chunk(path=f"f{i % 7}.py", start=1 + i, end=i + len(lines), text="\n".join(lines)))
    packer, capped = BudgetPacker(ChunkLookup(chunks)), BudgetPacker(ChunkLookup(chunks), max_budget=200)
    ids = list(packer.lookup.by_id)
    for trial in range(200):
        hits = rng.sample(ids, rng.randint(0, 12))
        budget = rng.choice([0, 1, 5, 40, 200, 1000])
        assert packer.take(hits, budget) == _take_line_by_line(packer, hits, budget)
        if budget <= 200:  # a packer counting lines only up to its largest budget packs the same
            assert capped.take(hits, budget) == _take_line_by_line(packer, hits, budget)
    assert any(len(c) < len(text.split("\n")) for text, c in capped._cumulative.items())


def test_a_text_in_many_snapshots_is_counted_once_and_packs_as_its_own():
    """The same file in two snapshots (two chunk ids, one text) shares one count; a third version that
    differs in a line is counted on its own, and each packs exactly as line-by-line packing does."""
    text = "def f(x):\n    return x + 1\n# a comment line\nvalue = f(2)"
    other = text.replace("x + 1", "x + 1 + 2 + 3")
    chunks = [Chunk(path="a@1/m.py", start=1, end=4, text=text), Chunk(path="a@2/m.py", start=1, end=4, text=text),
              Chunk(path="a@3/m.py", start=1, end=4, text=other)]
    packer = BudgetPacker(ChunkLookup(chunks), max_budget=1000)
    ids = list(packer.lookup.by_id)
    for budget in (0, 3, 7, 12, 1000):
        for cid in ids:
            assert packer.take([cid], budget) == _take_line_by_line(packer, [cid], budget)
    assert set(packer._cumulative) == {text, other}
    assert packer.cumulative(ids[0]) is packer.cumulative(ids[1])
    assert packer.cumulative(ids[2])[-1] > packer.cumulative(ids[0])[-1]
