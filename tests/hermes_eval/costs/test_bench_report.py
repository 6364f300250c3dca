"""Bench bookkeeping (not timings): the growth exponent fit and the markdown it writes."""
from __future__ import annotations

import pytest

from hermes_eval.costs.benches import render
from hermes_eval.costs.scaling import growth_exponent, peak_rss_mb


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


def test_swebench_cost_table_names_ratios_misses_and_the_kth_snapshot():
    from hermes_eval.costs.swebench_cost import _kth_snapshot, markdown

    record = {"snapshots": {"a@1/": {"files": 10, "files_reused": 0}, "a@2/": {"files": 10, "files_reused": 9},
                            "a@3/": {"files": 10, "files_reused": 8}, "b@1/": {"files": 5, "files_reused": 0}},
              "snapshot_work": {"a@1/": {"build_seconds": 2.0, "texts_tokenized": {"sparse": 10}},
                                "a@2/": {"build_seconds": 0.5, "texts_tokenized": {"sparse": 1}},
                                "a@3/": {"build_seconds": 0.7, "texts_tokenized": {"sparse": 2}},
                                "b@1/": {"build_seconds": 1.0, "texts_tokenized": {"sparse": 5}}}}
    kth = _kth_snapshot(record)
    assert list(kth) == ["a"]  # a repository with one snapshot has no k-th
    assert kth["a"]["later_build_s_median"] == 0.6 and kth["a"]["later_texts_tokenized_median"] == 1.5
    assert kth["a"]["later_files_reused_share"] == 0.85
    row = {"arm": "bm25/whole_file", "cold_s": 400.0, "warm_s": 100.0, "resumed_s": 3.0, "peak_rss_mb": 2500.0,
           "warm_peak_rss_mb": 2400.0, "chunks": 10, "file_ndcg@10": 0.42, "kth_snapshot": kth, "ratio": 5.0,
           "target_ratio": 4.0, "passed": False}
    result = {"instances": 140, "import_s": 20.0, "reference": [{"peak_rss_mb": 800.0}], "reference_spread_s": [80, 82],
              "reference_ndcg@10": 0.5, "rows": [row], "cache_mb": 12.0, "max_rss_mb": 2048,
              "bm25_board_cold_s": 400.0, "bm25_board_warm_s": 100.0, "bm25_board_resumed_s": 3.0}
    text = "\n".join(markdown(result))
    assert "| bm25/whole_file | 400.0 | 5.0 | <= 4.0x, <= 2048 MB |" in text and "**miss**" in text
    assert "| a | 3 | 2.0 | 0.6 | 10 | 1.5 | 0.85 |" in text
    assert "skipped: needs" in "\n".join(markdown({"skipped": "needs the mirrors"}))
    fn = dict(row, arm="bm25/functions", target_ratio=10.0, target_rss_mb=None, ratio=7.0, passed=True)
    text = "\n".join(markdown(dict(result, rows=[row, fn])))
    assert "| bm25/functions | 400.0 | 7.0 | <= 10.0x | 100.0 |" in text  # no memory target at function level


def test_kth_snapshot_takes_the_first_built_not_the_first_sorted_key():
    """record.json sorts its keys: the first snapshot is the one at position 0, wherever its key sorts."""
    from hermes_eval.costs.swebench_cost import _kth_snapshot

    snapshots = {"a@1/": {"files": 10, "files_reused": 9}, "a@2/": {"files": 10, "files_reused": 0},
                 "a@3/": {"files": 10, "files_reused": 8}}
    work = {"a@1/": {"position": 1, "build_seconds": 0.5, "texts_tokenized": {"sparse": 1}},
            "a@2/": {"position": 0, "build_seconds": 2.0, "texts_tokenized": {"sparse": 10}},
            "a@3/": {"position": 2, "build_seconds": 0.7, "texts_tokenized": {"sparse": 3}}}
    kth = _kth_snapshot({"snapshots": snapshots, "snapshot_work": work})["a"]
    assert kth["first_texts_tokenized"] == 10 and kth["first_build_s"] == 2.0
    assert kth["later_texts_tokenized_median"] == 2 and kth["later_files_reused_share"] == 0.85
    for w in work.values():  # an older record without positions: the snapshot that reused nothing was first
        del w["position"]
    assert _kth_snapshot({"snapshots": snapshots, "snapshot_work": work})["a"]["first_texts_tokenized"] == 10


def test_the_committed_costs_md_is_what_its_json_renders():
    """costs --only re-renders costs.md from costs.json: a section only in the markdown would be lost."""
    import json
    from pathlib import Path

    from hermes_eval.costs.benches import render

    reports = Path(__file__).resolve().parents[3] / "reports"
    assert render(json.loads((reports / "costs.json").read_text())) == (reports / "costs.md").read_text()
