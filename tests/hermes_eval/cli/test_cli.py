"""The CLI as a user meets it: one-line errors, exit codes, no tracebacks."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def paths(tmp: Path) -> list[str]:
    return [f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]


def assert_one_line_error(proc, code: int, *needles: str):
    assert proc.returncode == code, proc.stderr
    err = [line for line in proc.stderr.splitlines() if line.startswith("hermes-eval: error:")]
    assert len(err) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    for n in needles:
        assert n in err[0], err[0]


def test_unknown_config_option(tmp_path):
    proc = cli("run", "chunker=no_such_chunker", *paths(tmp_path), cwd=tmp_path)
    assert_one_line_error(proc, 2, "no_such_chunker", "Available options")


def test_unknown_key(tmp_path):
    proc = cli("sweep", "fusion.dense_wieght=0.1,0.2", *paths(tmp_path), cwd=tmp_path)
    assert_one_line_error(proc, 2, "dense_wieght")


def test_missing_corpus_path(tmp_path):
    proc = cli("run", "corpus.sources=[/no/such/repo]", "fusion.dense_weight=0.0", *paths(tmp_path), cwd=tmp_path)
    assert_one_line_error(proc, 1, "/no/such/repo", "does not exist")
    record = next((tmp_path / "runs").glob("*/record.json"))
    assert '"status": "failed"' in record.read_text()


def test_empty_corpus(tmp_path):
    (tmp_path / "empty").mkdir()
    proc = cli("datasets", "generate", f"corpus.sources=[{tmp_path / 'empty'}]", *paths(tmp_path), cwd=tmp_path)
    assert_one_line_error(proc, 2, "no indexable files")


@pytest.mark.parametrize("name,content,needle", [
    ("queries.parquet", b"PAR1 this is not parquet", "cannot read parquet"),
    ("queries.jsonl", b'{"qid": "a", "query": "x", "gold": []}\n{"qid": "b", "query": \n', "line 2"),
])
def test_unreadable_query_set(tmp_path, name, content, needle):
    src = tmp_path / "src"
    src.mkdir()
    (src / "m.py").write_text('def f():\n    """Compute the thing we need here."""\n    return 1\n')
    folder = tmp_path / "ds" / "t-docstring"
    folder.mkdir(parents=True)
    (folder / name).write_bytes(content)
    proc = cli("datasets", "check", f"corpus.sources=[{src}]", "corpus.name=t", *paths(tmp_path), cwd=tmp_path)
    assert_one_line_error(proc, 2, needle, name)
