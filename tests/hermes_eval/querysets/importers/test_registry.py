"""The importer registry finds formats by the modules' own declarations (IMPORT_FORMAT, IMPORT_SUMMARY), reading
sources without importing them: a new format is its module alone."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers.registry import IMPORTERS, discover


def _package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_module_declaring_a_format_is_found_in_any_subpackage_and_loads(tmp_path, monkeypatch):
    root = _package(tmp_path / "fmtpkg", {
        "__init__.py": "", "deep/__init__.py": "",
        "deep/trec.py": 'import os\n\nIMPORT_FORMAT = "trec"\nIMPORT_SUMMARY = ("TREC run files "\n  "-> queries")\n'
                        'Options, run = object, print\n',
        "other.py": 'FORMAT = "%x00".join(["a"])  # a constant of the same suffix: not a declaration\n',
    })
    found = discover(root, "fmtpkg")
    assert list(found) == ["trec"]
    assert (found["trec"].module, found["trec"].summary) == ("fmtpkg.deep.trec", "TREC run files -> queries")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert found["trec"].load().run is print
    sys.modules.pop("fmtpkg.deep.trec", None)


@pytest.mark.parametrize("files,message", [
    ({"a.py": 'IMPORT_FORMAT = "x"\nIMPORT_SUMMARY = "s"\n', "b.py": 'IMPORT_FORMAT = "x"\nIMPORT_SUMMARY = "t"\n'},
     r"b\.py: IMPORT_FORMAT 'x' is also declared by pkg\.a: rename one"),
    ({"a.py": 'IMPORT_FORMAT = "x"\n'}, r"a\.py: IMPORT_FORMAT 'x' has no IMPORT_SUMMARY"),
    ({"a.py": 'NAME = "x"\nIMPORT_FORMAT = NAME\nIMPORT_SUMMARY = "s"\n'}, r"a\.py: IMPORT_FORMAT must be a plain string"),
])
def test_bad_declarations_are_one_line_errors_naming_the_file(tmp_path, files, message):
    with pytest.raises(UserError, match=message) as err:
        discover(_package(tmp_path / "pkg", files), "pkg")
    assert "\n" not in str(err.value)


def test_the_project_formats_are_the_declared_ones():
    assert list(IMPORTERS) == sorted(IMPORTERS)
    assert {"beir", "bench4bl", "blizzard", "cosqa", "gandhi", "mined", "mteb", "repoeval", "swebench",
            "ye"} <= set(IMPORTERS)
    assert all(e.summary and "\n" not in e.summary for e in IMPORTERS.values())


def test_an_old_format_name_is_the_same_importer_said_in_one_line(capsys):
    from hermes_eval.querysets.importers.registry import FORMERLY, current_name, importer

    assert FORMERLY == {"history": "mined"}  # the miner's name before "history" meant the board only
    assert importer("history") is importer("mined")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "now 'mined'" in err
    assert current_name("mined") == "mined" and capsys.readouterr().err == ""
    with pytest.raises(UserError, match="unknown format 'histroy'"):
        importer("histroy")
