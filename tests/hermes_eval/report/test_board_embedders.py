"""A board whose runs use different embedders names each run's embedder and shows its costs (query-embed
p50/p95, texts/s, model size, peak RSS); a board with one embedder keeps its usual columns."""
from __future__ import annotations

from dataclasses import replace

import pytest
from fakeruns import BASELINE, DENSE_AST, queries, write_arm

from hermes_eval.report.publish import build_reports

STATIC = replace(DENSE_AST, system="exact [minilm_static]", hit_rate=0.3, latency_ms=0.2, config_hash="eeee000000000005")


def _embedder(name: str, texts_per_s: float, model_bytes: int, rss: float) -> dict:
    return {"config": {"embedder": {"name": name}}, "peak_rss_mb": rss,
            "embeddings": {"computed": 40, "cached": 0, "encode_seconds": 40 / texts_per_s,
                           "texts_per_s": texts_per_s, "model_bytes": model_bytes}}


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("emb")
    qs = queries(plant=False)
    write_arm(root / "runs", BASELINE, qs, 0, record_update={"config": {"embedder": {"name": "minilm"}}})
    write_arm(root / "runs", DENSE_AST, qs, 1, record_update=_embedder("minilm", 35.5, 91_600_000, 1100.0))
    write_arm(root / "runs", STATIC, qs, 2, record_update=_embedder("minilm_static", 2400.0, 15_600_000, 700.0))
    # records are keyed by config hash: the second query set's runs need their own
    write_arm(root / "runs", replace(BASELINE, config_hash="ffff000000000006"), qs, 0, queryset="one-embedder")
    write_arm(root / "runs", replace(DENSE_AST, config_hash="ffff000000000007"), qs, 1, queryset="one-embedder",
              record_update=_embedder("minilm", 35.5, 91_600_000, 1100.0))
    build_reports(root / "runs", root / "reports")
    return (root / "reports" / "leaderboard.md").read_text() + "\n<<html>>\n" + \
        (root / "reports" / "leaderboard.html").read_text()


def _section(board: str, queryset: str) -> str:
    md = board.split("<<html>>")[0]
    return md.split(f"## {queryset}")[1].split("\n## ")[0]


def test_embedders_that_differ_get_their_column_and_costs(board):
    text = _section(board, "toy-qs")
    header = next(line for line in text.splitlines() if line.startswith("| \\#"))
    assert "| chunker | embedder | config |" in header
    assert "| embed p50 ms | embed p95 ms | texts/s | model MB | peak RSS MB |" in header
    static = next(line for line in text.splitlines() if "minilm\\_static" in line)
    assert "| 2400.0 | 15.6 | 700 |" in static
    html = board.split("<<html>>")[1]
    assert ">embedder</th>" in html and ">texts/s</th>" in html and ">minilm_static</td>" in html


def test_one_embedder_keeps_the_usual_columns(board):
    header = next(line for line in _section(board, "one-embedder").splitlines() if line.startswith("| \\#"))
    assert "embedder" not in header and "texts/s" not in header
