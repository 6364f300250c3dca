"""Strict readers of the file formats importers share (JSON lines, TSV, unified diffs)."""
