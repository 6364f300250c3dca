"""Bench bookkeeping (not timings): the growth exponent fit and the markdown it writes."""
from __future__ import annotations

import pytest

from hermes_eval.bench.benches import render
from hermes_eval.bench.scaling import growth_exponent, peak_rss_mb


@pytest.mark.parametrize("power", [0.0, 0.5, 1.0, 2.0])
def test_growth_exponent_recovers_the_power_law(power):
    rows = [{"chunks": n, "query_p50_ms": 0.01 * n ** power} for n in (1_000, 4_000, 16_000, 64_000)]
    assert growth_exponent(rows) == pytest.approx(power, abs=1e-6)


def test_growth_exponent_needs_two_points():
    assert growth_exponent([{"chunks": 10, "query_p50_ms": 1.0}]) is None


def test_peak_rss_is_this_process():
    assert 10 < peak_rss_mb() < 100_000


def test_render_marks_a_missed_target_and_errors():
    results = {"machine": {"platform": "p", "cpus": 2, "processor": "x", "python": "3.11"}, "when": "now",
               "benches": {"sweep_reuse": {"ratio": 1.7, "single_arm_s": 10, "grid_6_arms_s": 17,
                                           "target": "<= 1.5", "passed": False},
                           "embedding_throughput": {"error": "RuntimeError: boom"}}}
    text = render(results)
    assert "| sweep_reuse | ratio 1.7" in text and "**miss**" in text
    assert "| embedding_throughput | RuntimeError: boom | - | error |" in text


def test_render_lists_each_embedder_against_its_raw_call():
    row = {"embedder": "minilm_static", "model_mb": 15.6, "raw_texts_per_s": 900.0, "ours_texts_per_s": 870.5,
           "texts_per_s_spread": [850.0, 880.0], "throughput_ratio": 0.967, "raw_query_p50_ms": 0.05,
           "raw_query_p95_ms": 0.08, "ours_query_p50_ms": 0.06, "ours_query_p95_ms": 0.09,
           "query_p50_ratio": 1.2, "query_ratio_halves": [1.1, 1.3]}
    results = {"machine": {"platform": "p", "cpus": 2, "processor": "x", "python": "3.11"}, "when": "now",
               "benches": {"embedders": {"texts": 128, "queries_per_round": 57, "rounds": 3, "rows": [row]}}}
    text = render(results)
    assert "## Embedders (ours vs the raw library call, interleaved: 3 rounds" in text
    assert "| minilm_static | 15.6 | 870.5 | 900.0 | 0.967 | 850.0–880.0 | 0.06 | 0.09 | 0.05 | 0.08 | 1.2 | 1.1 / 1.3 |" in text
    assert "Embedders: error: RuntimeError: x" in render(dict(results, benches={"embedders": {"error": "RuntimeError: x"}}))
