"""The gate's results database is reports/gate.sqlite; for one release its old name, history.sqlite, is read when
it is the only one, and the gate's next write moves it (no result left behind, none split over two files)."""
from __future__ import annotations

from hermes_eval.report.gate_db import gate_db, gate_db_to_write


def test_a_new_folder_uses_gate_sqlite(tmp_path):
    assert gate_db(tmp_path) == gate_db_to_write(tmp_path) == tmp_path / "gate.sqlite"
    assert not (tmp_path / "gate.sqlite").exists()


def test_the_old_name_is_read_alone_and_moved_on_write(tmp_path):
    (tmp_path / "history.sqlite").write_bytes(b"old results")
    assert gate_db(tmp_path) == tmp_path / "history.sqlite"
    assert gate_db_to_write(tmp_path) == tmp_path / "gate.sqlite"
    assert (tmp_path / "gate.sqlite").read_bytes() == b"old results" and not (tmp_path / "history.sqlite").exists()


def test_the_new_name_wins_when_both_exist(tmp_path):
    for name in ("history.sqlite", "gate.sqlite"):
        (tmp_path / name).write_bytes(name.encode())
    assert gate_db(tmp_path) == gate_db_to_write(tmp_path) == tmp_path / "gate.sqlite"
    assert (tmp_path / "history.sqlite").read_bytes() == b"history.sqlite"  # a stale old copy is left alone
