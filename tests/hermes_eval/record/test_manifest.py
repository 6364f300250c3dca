"""Peak memory in a record is the job's own, not an earlier job's in the same (reused) process."""
from __future__ import annotations

import numpy as np

from hermes_eval.record.manifest import peak_rss_mb, reset_peak_rss


def test_a_reset_forgets_an_earlier_peak():
    big = np.ones(40_000_000)  # 320 MB touched
    before = peak_rss_mb()
    del big
    assert reset_peak_rss() == "job"
    assert peak_rss_mb() < before - 250


def test_a_run_after_a_big_one_in_the_same_process_reports_its_own_peak(make_cfg):
    from hermes_eval.api import execute_config

    big = np.ones(150_000_000)  # an earlier "job" in this process peaked 1.2 GB higher
    earlier = peak_rss_mb()
    del big
    out = execute_config(make_cfg("fusion.dense_weight=0.0"))
    assert out.status == "ok" and out.record["peak_rss_scope"] == "job"
    assert out.record["peak_rss_mb"] < earlier - 400  # without the reset it would be >= earlier
