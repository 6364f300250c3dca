"""Every corpus source form, written unquoted on the command line (``corpus.sources=[pypi:x==1]``),
through the real `hermes-eval` entry point, offline: artifacts are built locally and seeded
where the download step would put them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from artifact_builders import seed_deb, seed_npm, seed_wheel

from hermes_eval.cli.main import main

PY = '''def parse_header(line):
    """Split one raw header line into its name and value parts."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()


def join_words(words):
    """Glue a list of separate words back into one sentence."""
    return " ".join(words)
'''


def other_py(topic: str) -> str:
    """A module whose docstrings are its own (identical docstrings are dropped as duplicates)."""
    return (f'def describe_{topic}(value):\n    """Describe the {topic} held by this value in plain words."""\n'
            f'    return str(value)\n')


RUST = "/// Adds one to the number it is given.\npub fn add_one(x: i32) -> i32 {\n    x + 1\n}\n"
JS = "/** Add two numbers. */\nfunction add(a, b) {\n  return a + b;\n}\n"


def _folder(tmp: Path) -> Path:
    root = tmp / "pyrepo"
    root.mkdir(exist_ok=True)
    (root / "headers.py").write_text(PY)
    return root


def _pypi(tmp: Path, cache: Path, git_repo=None) -> str:
    seed_wheel(cache, "tinyheaders", "0.1.0", {"tinyheaders/__init__.py": other_py("weather")})
    return "pypi:tinyheaders==0.1.0"


def _npm(tmp: Path, cache: Path, git_repo=None) -> str:
    seed_npm(cache, "tiny-add", "1.0.0", {"lib/add.js": JS}, tmp)
    return "npm:tiny-add@1.0.0"


def _deb(tmp: Path, cache: Path, git_repo=None) -> str:
    seed_deb(cache, "librust-addone-dev", "1:0.1.0~rc1-2",
             {"usr/share/cargo/registry/addone-0.1.0/src/lib.rs": RUST}, tmp)
    return "deb:librust-addone-dev=1:0.1.0~rc1-2"


def _git(tmp: Path, cache: Path, git_repo=None) -> str:
    sha = git_repo(tmp / "gitrepo", [{"pkg/words.py": other_py("colour")}])[0]
    return f"git:{tmp / 'gitrepo'}@{sha[:12]}"


def _dir(tmp: Path, cache: Path, git_repo=None) -> str:
    other = tmp / "other"
    other.mkdir()
    (other / "more.py").write_text('def count_vowels(text):\n    """Count how many vowels the given text holds."""\n'
                                   '    return sum(ch in "aeiou" for ch in text)\n')
    return str(other)


FORMS = {"pypi": _pypi, "npm": _npm, "deb": _deb, "git": _git, "folder": _dir}


def _argv(tmp: Path, cache: Path, sources: str) -> list[str]:
    return [f"corpus.sources=[{sources}]", "corpus.name=forms", "retriever=bm25", "chunker=lines",
            f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'ds'}", f"paths.cache={cache}",
            "queryset.name=forms-docstring", "warmup=0", "bootstrap=10"]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_run_takes_each_source_form_unquoted(tmp_path, capsys, git_repo, form):
    cache = tmp_path / "cache"
    spec = FORMS[form](tmp_path, cache, git_repo)
    folder = _folder(tmp_path)
    assert main(["run", *_argv(tmp_path, cache, f"{spec}, {folder}")]) == 0, capsys.readouterr().err
    record = json.loads(next((tmp_path / "runs").glob("*/record.json")).read_text())
    info = record["corpus_info"]
    assert record["status"] == "ok" and info["sources"] == [spec, str(folder)]
    if form in ("pypi", "npm", "deb"):  # downloaded artifacts carry their fingerprint into the record
        assert list(info["source_fingerprints"]) == [spec]
        assert info["source_fingerprints"][spec].startswith("sha256:")
    assert info["files"] >= 2


def test_sweep_takes_unquoted_pinned_sources(tmp_path):
    """The multirun path: Hydra's own parser reads the overrides again in a fresh process."""
    cache = tmp_path / "cache"
    pypi, deb = _pypi(tmp_path, cache), _deb(tmp_path, cache)
    argv = ["sweep", *_argv(tmp_path, cache, f"{pypi},{deb}"), "chunker=lines,whole_file", "hydra.launcher.n_jobs=1"]
    proc = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *argv], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/record.json")]
    assert sorted(r["config"]["chunker"]["name"] for r in records) == ["lines", "whole_file"]
    assert all(r["status"] == "ok" and r["corpus_info"]["sources"] == [pypi, deb] for r in records)
