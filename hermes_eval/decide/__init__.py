"""Preregistered design decisions: spec, analysis, rule, rendering, and the `decide` command."""
