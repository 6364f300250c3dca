"""Nightly regression gate: run a fixed suite, compare with the committed baseline."""
