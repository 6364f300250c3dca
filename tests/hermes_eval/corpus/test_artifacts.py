"""The cache discipline of downloaded sources: download once, unpack once, fingerprint always."""
from __future__ import annotations

import zipfile

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus.artifacts import FINGERPRINT_FILE, download_dir, fetch_once, sha256_of
from hermes_eval.corpus.sources import _unpack


def _zip(path, files):
    with zipfile.ZipFile(path, "w") as z:
        for rel, text in files.items():
            z.writestr(rel, text)
    return path


def test_download_runs_once_and_a_second_fetch_reads_the_cache(tmp_path):
    calls = []

    def download(into):
        calls.append(into)
        _zip(into / "pkg-1.0.whl", {"pkg/a.py": "A = 1\n"})

    first = fetch_once("pypi:pkg==1.0", tmp_path / "e", download, _unpack)
    again = fetch_once("pypi:pkg==1.0", tmp_path / "e", download, _unpack)
    assert len(calls) == 1 and first == again
    assert (first.root / "pkg" / "a.py").read_text() == "A = 1\n"
    assert first.fingerprint == f"sha256:{sha256_of(first.artifact)} pkg-1.0.whl"


def test_an_interrupted_unpack_is_redone_from_the_artifact_without_downloading(tmp_path):
    dest = tmp_path / "e"
    download_dir(dest).mkdir(parents=True)
    _zip(download_dir(dest) / "pkg-1.0.whl", {"pkg/a.py": "A = 1\n"})
    (dest / "src" / "pkg").mkdir(parents=True)
    (dest / "src" / "pkg" / "half.py").write_text("partial")  # left by a killed job, no done mark

    def no_download(into):
        raise AssertionError("the artifact is already there")

    got = fetch_once("pypi:pkg==1.0", dest, no_download, _unpack)
    assert sorted(p.name for p in (got.root / "pkg").iterdir()) == ["a.py"]


def test_an_entry_cached_before_fingerprints_gets_one(tmp_path):
    dest = tmp_path / "e"
    fetch_once("pypi:pkg==1.0", dest, lambda into: _zip(into / "p.whl", {"a.py": "x\n"}), _unpack)
    (dest / FINGERPRINT_FILE).unlink()
    got = fetch_once("pypi:pkg==1.0", dest, lambda into: None, _unpack)
    assert got.sha256 == sha256_of(download_dir(dest) / "p.whl")


@pytest.mark.parametrize("files, words", [({}, "the download left nothing"),
                                          ({"a.whl": "x", "b.whl": "y"}, "holds 2 files")])
def test_an_empty_or_ambiguous_download_folder_is_one_clear_line(tmp_path, files, words):
    def download(into):
        for name, text in files.items():
            (into / name).write_text(text)

    with pytest.raises(UserError, match=words):
        fetch_once("npm:x@1.0.0", tmp_path / "e", download, _unpack)
