"""Per-query ranking measures, ranx's definitions computed in plain Python, one module per measure.

ranx computes the same values with numba kernels, but importing it and building its typed lists
costs a fresh process about 1.7 s, several times a small run's whole work. These modules follow
ranx 0.3's kernels line by line (the same cut-offs, relevance level and summation order) and
``tests/hermes_eval/judge/measures/test_ranx_parity.py`` holds them to ranx itself.
"""
from hermes_eval.judge.measures.registry import MEASURES, measure_values

__all__ = ["MEASURES", "measure_values"]
