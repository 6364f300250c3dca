"""The make-sweep timing table says which caches it started with and sums each phase's steps."""
from __future__ import annotations

from hermes_eval.costs.sweep_timing import STEPS, render


def results(wall: float) -> dict:
    phase = {name: {"wall": wall, "cpu": wall * 2, "exit": 0} for name, _ in STEPS}
    return {"cold": dict(phase, load_before="1.0", load_after="1.5"),
            "warm": dict(phase, load_before="1.5", load_after="1.5")}


def test_the_table_names_its_caches_and_totals_each_phase():
    empty = render({"after": results(10.0)}, None, empty_package_caches=True)
    assert "pip and uv started with empty caches" in empty
    assert f"| **make sweep** | **{10.0 * len(STEPS):.1f} / {20.0 * len(STEPS):.1f}** |" in empty
    assert "caches were as found" in render({"after": results(1.0)}, None)
