"""Bad input, case by case: exit code, one line naming the file or field and the fix, no traceback."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_eval.cli.main import main

GOOD_PY = '''def parse_header(line):
    """Split one raw header line into its name and value parts."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()


class Session:
    """Keep cookies and settings across many separate requests."""

    def close(self):
        return None
'''


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "mod.py").write_text(GOOD_PY)
    return root


def base(tmp: Path, repo: Path) -> list[str]:
    return [f"paths.runs={tmp / 'runs'}", f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}",
            "corpus.name=bad", f"corpus.sources=[{repo}]"]


def imported(tmp: Path, rows: list | str, name: str = "qs") -> list[str]:
    folder = tmp / "ds" / name
    folder.mkdir(parents=True, exist_ok=True)
    text = rows if isinstance(rows, str) else "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "queries.jsonl").write_text(text)
    return ["queryset=imported", f"queryset.name={name}"]


def q(qid="a", query="split header line", path="mod.py", start=1, end=4, **extra) -> dict:
    return {"qid": qid, "query": query, "gold": [{"path": path, "start": start, "end": end}], **extra}


def check(capsys, argv: list[str], code: int, *needles: str) -> str:
    assert main(argv) == code
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("hermes-eval: error:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


# (id, overrides builder, needles) for `hermes-eval run` failing before anything runs: exit 2
CONFIG_CASES = [
    ("unknown-group-option", lambda t, r: ["chunker=nope"], ["nope", "Available options"]),
    ("unknown-key", lambda t, r: ["fusion.dense_wieght=0.2"], ["dense_wieght"]),
    ("bad-override-syntax", lambda t, r: ["fusion.k=[1,"], ["[1,", "override_grammar"]),
    ("k-zero", lambda t, r: ["depths.k=0"], ["depths.k", "positive integer"]),
    ("k-negative", lambda t, r: ["depths.sparse_top_k=-5"], ["depths.sparse_top_k"]),
    ("k-not-a-number", lambda t, r: ["depths.k=ten"], ["depths.k"]),
    ("warmup-negative", lambda t, r: ["warmup=-1"], ["warmup", ">= 0"]),
    ("seed-not-int", lambda t, r: ["seed=abc"], ["seed", "integer"]),
    ("dense-weight-out-of-range", lambda t, r: ["fusion.dense_weight=1.5"], ["fusion.dense_weight", "[0, 1]"]),
    ("rrf-k-negative", lambda t, r: ["fusion.k=-1"], ["fusion.k"]),
    ("fusion-weight-for-unknown-leg", lambda t, r: ["+fusion.weights.colbert=1.0"],
     ["fusion.weights.colbert", "names no leg"]),
    ("retriever-without-legs", lambda t, r: ["retriever.sparse=null", "retriever.dense=null"], ["no sparse, dense"]),
    ("self-retrieval-threshold", lambda t, r: ["hygiene.self_retrieval_warn=2"], ["hygiene.self_retrieval_warn"]),
]


@pytest.mark.parametrize("case,build,needles", CONFIG_CASES, ids=[c[0] for c in CONFIG_CASES])
def test_config_errors(capsys, tmp_path, repo, case, build, needles):
    check(capsys, ["run", *base(tmp_path, repo), *build(tmp_path, repo)], 2, *needles)


# query-set and corpus problems found by `datasets check`: exit 2, the file and field named
DATA_CASES = [
    ("jsonl-malformed-line", lambda t: imported(t, json.dumps(q()) + "\n{\"qid\": \"b\",\n"), ["line 2", "queries.jsonl"]),
    ("jsonl-not-an-object", lambda t: imported(t, "[1, 2]\n"), ["line 1", "JSON object"]),
    ("missing-qid", lambda t: imported(t, [{"query": "x", "gold": []}]), ["line 1", "'qid'"]),
    ("missing-query", lambda t: imported(t, [{"qid": "a", "gold": []}]), ["line 1", "'query'"]),
    ("query-not-string", lambda t: imported(t, [q(query=5)]), ["field 'query'"]),
    ("gold-not-a-list", lambda t: imported(t, [dict(q(), gold={"path": "mod.py"})]), ["'gold'", "list"]),
    ("gold-missing-end", lambda t: imported(t, [dict(q(), gold=[{"path": "mod.py", "start": 1}])]),
     ["gold[0]", "path, start and end"]),
    ("gold-start-after-end", lambda t: imported(t, [q(start=5, end=2)]), ["gold[0]", "start <= end"]),
    ("gold-line-zero", lambda t: imported(t, [q(start=0, end=2)]), ["gold[0]"]),
    ("gold-absolute-path", lambda t: imported(t, [q(path="/etc/passwd")]), ["gold[0]", "relative"]),
    ("gold-escapes-root", lambda t: imported(t, [q(path="../../etc/passwd")]), ["gold[0]", "inside"]),
    ("exclude-bad-span", lambda t: imported(t, [dict(q(), exclude=[{"path": "mod.py", "start": "x", "end": 2}])]),
     ["exclude[0]"]),
    ("empty-query-set", lambda t: imported(t, "\n\n"), ["empty"]),
    ("no-query-files", lambda t: (t / "ds" / "qs").mkdir(parents=True) or ["queryset=imported", "queryset.name=qs"],
     ["no generator and no files", "import it"]),
    ("bad-manifest", lambda t: imported(t, [q()]) + [(t / "ds" / "qs" / "manifest.json").write_text("{oops")
                                                      and "seed=0"], ["manifest.json", "invalid JSON"]),
    ("corrupt-parquet", lambda t: ((t / "ds" / "qs").mkdir(parents=True), (t / "ds" / "qs" / "queries.parquet")
                                   .write_bytes(b"PAR1garbage"))[0] or ["queryset=imported", "queryset.name=qs"],
     ["queries.parquet", "cannot read parquet"]),
]


@pytest.mark.parametrize("case,build,needles", DATA_CASES, ids=[c[0] for c in DATA_CASES])
def test_query_set_errors(capsys, tmp_path, repo, case, build, needles):
    check(capsys, ["datasets", "check", *base(tmp_path, repo), *build(tmp_path)], 2, *needles)


def test_corpus_source_is_a_file(capsys, tmp_path, repo):
    check(capsys, ["datasets", "generate", *base(tmp_path, repo), f"corpus.sources=[{repo / 'mod.py'}]"], 2,
          "is not a folder")


def test_unknown_installed_distribution(capsys, tmp_path, repo):
    check(capsys, ["datasets", "generate", *base(tmp_path, repo), "corpus.sources=[pkg:no-such-dist-xyz]"], 2,
          "not installed")


def test_unpinned_pypi_source(capsys, tmp_path, repo):
    check(capsys, ["datasets", "generate", *base(tmp_path, repo), "corpus.sources=[pypi:requests]"], 2,
          "must pin a version")


def test_only_binary_files_is_an_empty_corpus(capsys, tmp_path, repo):
    (repo / "mod.py").write_bytes(b"\x00\x01binary")
    check(capsys, ["datasets", "generate", *base(tmp_path, repo)], 2, "no indexable files")


def test_unknown_gate_spec(capsys, tmp_path):
    check(capsys, ["gate", "--name", "nope", "--reports", str(tmp_path)], 2, "not found")


# failures inside a run: the record says failed, the CLI exits 1 with one line
def _run_cli(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "run", *args], capture_output=True, text=True,
                          timeout=600, cwd=tmp, env=dict(os.environ))


def _assert_failed_run(proc, tmp: Path, *needles: str) -> None:
    assert proc.returncode == 1, proc.stderr
    err = [ln for ln in proc.stderr.splitlines() if ln.startswith("hermes-eval: error:")]
    assert len(err) == 1 and "Traceback" not in proc.stderr + proc.stdout
    for n in needles:
        assert n in err[0], err[0]
    rec = json.loads(next((tmp / "runs").glob("*/record.json")).read_text())
    assert rec["status"] == "failed" and all(n in rec["error"] for n in needles)


def test_duplicate_qids(tmp_path, repo):
    proc = _run_cli(tmp_path, *base(tmp_path, repo), *imported(tmp_path, [q(), q()]), "fusion.dense_weight=0.0")
    _assert_failed_run(proc, tmp_path, "qid 'a'", "unique")


def test_gold_outside_the_corpus(tmp_path, repo):
    proc = _run_cli(tmp_path, *base(tmp_path, repo), *imported(tmp_path, [q(path="other.py")]),
                    "fusion.dense_weight=0.0")
    _assert_failed_run(proc, tmp_path, "other.py", "not in corpus")


def test_gold_past_the_end_of_a_file(tmp_path, repo):
    proc = _run_cli(tmp_path, *base(tmp_path, repo), *imported(tmp_path, [q(start=3, end=400)]),
                    "fusion.dense_weight=0.0")
    _assert_failed_run(proc, tmp_path, "mod.py:3-400", "another version")


def test_unknown_model_offline(tmp_path, repo):
    proc = _run_cli(tmp_path, *base(tmp_path, repo), "fusion.dense_weight=1.0", "embedder.model=acme/no-such-model")
    _assert_failed_run(proc, tmp_path, "acme/no-such-model", "local folder")


def test_unknown_backend_class(tmp_path, repo):
    proc = _run_cli(tmp_path, *base(tmp_path, repo), "fusion.dense_weight=0.0",
                    "retriever.sparse._target_=retrievers.sparse.nope.Missing")
    _assert_failed_run(proc, tmp_path, "retrievers.sparse.nope.Missing")


def test_non_utf8_and_symlink_loops_are_skipped_not_fatal(tmp_path, repo):
    (repo / "latin1.py").write_bytes("caf\xe9 = 1\n".encode("latin-1"))
    os.symlink(repo, repo / "loop")
    proc = _run_cli(tmp_path, *base(tmp_path, repo), "fusion.dense_weight=0.0", "queryset.generator.min_words=3")
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(next((tmp_path / "runs").glob("*/record.json")).read_text())
    assert rec["status"] == "ok" and rec["corpus_info"]["skipped"]["not_utf8"] == 1


def test_whole_file_gold_on_an_empty_file_is_kept():
    # the importers' whole-file span on an empty file is 1-1 (Span(path, 1, max(n_lines, 1))): not an error;
    # a 2-line span on it still is
    from hermes_eval.core import Corpus, Query, QuerySet, Span
    from hermes_eval.core import UserError
    from hermes_eval.core.corpus import CorpusFile
    from hermes_eval.querysets.integrity import validate_queries

    corpus = Corpus("c", (CorpusFile("P.java", "r", "java", ""), CorpusFile("Q.java", "r", "java", "class Q {}\n")))
    ok = QuerySet("qs", (Query(qid="a", query="q", gold=(Span("P.java", 1, 1), Span("Q.java", 1, 1))),))
    validate_queries(ok, corpus, "qs")
    bad = QuerySet("qs", (Query(qid="a", query="q", gold=(Span("P.java", 1, 2),)),))
    with pytest.raises(UserError, match="P.java:1-2"):
        validate_queries(bad, corpus, "qs")
