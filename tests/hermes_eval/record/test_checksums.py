"""A record's checksums catch a run file that was edited, cut or removed after the run."""
from __future__ import annotations

from hermes_eval.record.checksums import damage, file_sums


def test_changed_cut_or_missing_files_are_each_named(tmp_path):
    (tmp_path / "run.trec").write_text("q Q0 d 1 1.0 t\n")
    (tmp_path / "qrels.trec").write_text("q 0 d 1\n")
    record = {"status": "ok", "files": file_sums(tmp_path)}
    assert set(record["files"]) == {"run.trec", "qrels.trec"} and damage(tmp_path, record) is None
    (tmp_path / "run.trec").write_text("q Q0 d 1 1.0 t")  # cut by one byte
    assert damage(tmp_path, record).startswith("run.trec does not match its record (sha256 differs")
    (tmp_path / "run.trec").write_text("q Q0 d 1 1.0 t\n")
    (tmp_path / "qrels.trec").unlink()
    assert damage(tmp_path, record) == "qrels.trec is missing"


def test_records_without_checksums_or_failed_runs_are_taken_as_they_are(tmp_path):
    assert damage(tmp_path, {"status": "ok"}) is None  # written before checksums existed
    assert damage(tmp_path, {"status": "failed", "files": {"run.trec": "0" * 64}}) is None
