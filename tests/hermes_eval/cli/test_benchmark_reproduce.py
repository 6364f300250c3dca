"""`hermes-eval benchmark NAME --reproduce`: the record's reproductions, run on its slice through the CLI (the
mirrors folder holds the slice as the package's mirror): the board README gets the agreement table between
markers, a re-run leaves it as it is, the anchors are checked and a record without reproductions says so."""
from __future__ import annotations

from pathlib import Path

from hermes_eval.cli.main import main
from hermes_eval.reproduce.board_section import markers

SLICE = Path(__file__).resolve().parents[2] / "slices" / "blizzard"
MIRROR = "masud-technope+BLIZZARD-Replication-Package-ESEC-FSE2018/repo"


def test_dry_run_names_the_records_reproductions(capsys):
    assert main(["benchmark", "blizzard", "--reproduce", "--dry-run", "--mirrors", "m"]) == 0
    out = capsys.readouterr().out
    assert "[reproduce] blizzard: blizzard_agreement projects=all" in out and "HERMES_MIRRORS=m" in out


def test_a_record_without_reproductions_is_one_line(capsys):
    assert main(["benchmark", "cosqa", "--reproduce", "--dry-run"]) != 0
    err = capsys.readouterr().err.strip()
    assert "cosqa name no reproductions" in err and "\n" not in err


def test_the_slice_writes_the_table_into_the_board_readme_once(tmp_path, monkeypatch, capsys):
    mirrors = tmp_path / "mirrors"
    (mirrors / MIRROR).parent.mkdir(parents=True)
    (mirrors / MIRROR).symlink_to(SLICE)
    readme = tmp_path / "reports/benchmarks/history/README.md"
    readme.parent.mkdir(parents=True)
    readme.write_text("# notes\n")
    monkeypatch.chdir(tmp_path)
    # the record asks for every project; the slice holds tomcat70 alone, so the others have no documents
    # and its 7 reports give other values than the record's anchors (the whole package's): exit 1, each named
    assert main(["benchmark", "blizzard", "--reproduce", "--mirrors", str(mirrors)]) == 1
    out = capsys.readouterr().out
    text = readme.read_text()
    begin, end = markers("blizzard_agreement")
    assert text.startswith("# notes\n") and begin in text and end in text
    assert "| tomcat70 | 31 | 7 |" in text and "| **all** |" in text
    assert out.count("[anchor] ") == 3 and out.count("DIFFERS: conf/benchmarks/blizzard.yaml anchors") >= 1
    assert "README.md updated" in out
    main(["benchmark", "blizzard", "--reproduce", "--mirrors", str(mirrors)])
    assert readme.read_text() == text and "README.md unchanged" in capsys.readouterr().out


def test_keep_going_reports_a_reproduction_that_cannot_run_and_runs_the_rest(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no datasets/ye-*: ye_compare cannot run; the gandhi release is not there either
    assert main(["benchmark", "ye", "gandhi", "--reproduce", "--keep-going", "--mirrors", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "[reproduce] ye_compare: could not run: ye_compare: no imported set datasets/ye-tomcat" in out
    assert "[reproduce] commit_bm25: could not run:" in out  # the second record still ran
    assert not (tmp_path / "reports").exists()
