"""Benchmark importers: one module per benchmark, typed options, and the registry the CLI reads."""
