"""What a sweep stopped by Ctrl-C says (cli/interrupted.py): the arms whose folders changed since the launch
(a folder an earlier sweep left is not one), and one line (the real sweep: tests/hermes_eval/test_faults.py)."""
from __future__ import annotations

import time
from pathlib import Path

from hermes_eval.cli.interrupted import Stopped, changed, folder_times, interrupted_line, resume_command


def test_only_folders_made_or_written_since_the_launch_are_arms_it_started(tmp_path):
    left, started, new = tmp_path / "left", tmp_path / "started", tmp_path / "new"
    left.mkdir(), started.mkdir()
    before = folder_times([left, started, new, tmp_path / "never"])
    assert before[new] is None
    time.sleep(0.02)
    (started / ".writer.json").write_text("{}")  # what taking an arm's lock writes
    new.mkdir()
    assert changed(before) == (started, new)


def test_the_line_names_the_arms_the_kept_records_and_the_resume_command():
    words = ["chunker=lines,python_ast", "corpus.sources=[pkg:requests]", "rerun=true"]
    assert resume_command(words) == "hermes-eval sweep chunker=lines,python_ast 'corpus.sources=[pkg:requests]'"
    one = interrupted_line(Stopped((Path("runs/a"),), 1, 2), words)
    assert one == ("hermes-eval: sweep interrupted during arm runs/a; finished arms are kept (1 of 2 finished); "
                   "resume with: hermes-eval sweep chunker=lines,python_ast 'corpus.sources=[pkg:requests]'")
    assert "during arms runs/a, runs/b;" in interrupted_line(Stopped((Path("runs/a"), Path("runs/b")), 0, 2), words)
    assert "interrupted between arms;" in interrupted_line(Stopped((), 2, 4), words)
    assert "\n" not in interrupted_line(None, words) and "before its arms started" in interrupted_line(None, words)
