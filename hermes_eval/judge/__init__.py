"""Judging a run: relevance from gold spans, metrics at every level with CIs, hygiene, paired tests. Imports only core."""
