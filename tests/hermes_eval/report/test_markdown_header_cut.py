"""A run whose chunker cut a shared header shows the cut's counts on the board (results row -> markdown chunker
cell); a run without one shows its chunker alone."""
from __future__ import annotations

import pandas as pd

from hermes_eval.record.results import to_row
from hermes_eval.report.markdown import _header_cut


def record(chunks: dict) -> dict:
    return {"_dir": "runs/x/run-a", "config_hash": "a" * 16, "chunker": "whole_file_no_header", "chunks": chunks}


def test_the_cut_reaches_the_board_row_and_cell():
    cut = to_row(record({"count": 9, "header_removed": {"chunks": 9, "files": 1234, "lines": 90, "tokens": 56789}}))
    plain = to_row(record({"count": 9}))
    assert (cut["header_cut_files"], cut["header_cut_tokens"]) == (1234, 56789)
    assert "header_cut_files" not in plain
    frame = pd.DataFrame([cut, plain])  # the board's frame: the plain run's cells are NaN
    assert _header_cut(frame.iloc[0]) == " (header cut: 1,234 files, 56,789 tokens)"
    assert _header_cut(frame.iloc[1]) == ""
