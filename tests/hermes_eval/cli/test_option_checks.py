"""Every key=value word of every command is checked against what the command knows: a mistyped one is refused in
one line naming the closest known keys, before anything runs, and never with Hydra's hint to append it with `+`
(which ran and ignored it). The real `hermes-eval` entry point, in-process."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hermes_eval.cli.main import main


def _repo(path: Path) -> Path:
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@a",
           "HOME": str(path), "PATH": "/usr/bin:/bin"}
    path.mkdir(parents=True)
    subprocess.run(["git", "-C", str(path), "init", "-q", "-b", "main"], check=True, env=env)
    (path / "m.py").write_text("def f():\n    return 1\n")
    subprocess.run(["git", "-C", str(path), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(path), "commit", "-q", "-m", "Add the first module"], check=True, env=env)
    return path


def refused(capsys, argv: list[str]) -> str:
    """The one error line of ``argv`` (exit 2), which must not suggest a ``+``."""
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    line = err.strip()
    assert line.startswith("hermes-eval: error: ") and "+" not in line, line
    return line


def test_a_mistyped_mine_option_names_the_option_it_resembles(capsys, tmp_path):
    repo = _repo(tmp_path / "repo")
    ds = f"paths.datasets={tmp_path / 'ds'}"
    line = refused(capsys, ["datasets", "mine", str(repo), "sinse=2023", "name=x", ds])
    assert line == "hermes-eval: error: datasets mine: sinse=2023: no such option; closest: since"
    assert refused(capsys, ["datasets", "mine", str(repo), "+sinse=2023", "name=x", ds]) == line  # + changes nothing
    assert "closest: keep_tests, keep_docs" in refused(capsys, ["datasets", "mine", str(repo), "keep_test=true", ds])
    line = refused(capsys, ["datasets", "mine", str(repo), "zzz=1", ds])
    assert "none is close; its options: bots, keep_docs" in line
    assert refused(capsys, ["datasets", "import", "cosqa", str(tmp_path), "splt=test", ds]) == (
        "hermes-eval: error: datasets import cosqa: splt=test: no such option; closest: split")
    assert not (tmp_path / "ds").exists()


@pytest.mark.parametrize("argv,closest", [
    (["run", "retriever=bm25", "chunker=whole_flie"],
     "config: chunker=whole_flie: no such chunker; closest: whole_file"),
    (["run", "fusion.dense_wieght=0.3"], "config: fusion.dense_wieght=0.3: no such key; closest: fusion.dense_weight"),
    (["run", "queryset.generator.max_querys=3"], "closest: queryset.generator.max_queries"),
    (["run", "retriever.sparse.k2=1.2"], "closest: retriever.sparse.k1"),
    (["run", "hydra.launcher.n_jobz=1"], "closest: hydra.launcher.n_jobs"),
    (["run", "hydra/launcher=jobib"], "config: hydra/launcher=jobib: no such launcher; closest: joblib"),
    (["run", "+fusion_tuning=gird"], "config: fusion_tuning=gird: no such fusion_tuning; closest: grid"),
    (["sweep", "chunker=lines,whole_flie"], "closest: whole_file"),  # every option of a sweep, not only the first
    (["sweep", "experiment=defualt"], "config: experiment=defualt: no such experiment; closest: default"),
    (["sweep", "fusion.dense_wieght=0.1,0.2"], "closest: fusion.dense_weight"),
    (["serve", "chunkr=lines"], "config: chunkr=lines: no such key; closest: chunker, chunk_workers"),
    (["datasets", "generate", "chunkr=lines"], "closest: chunker"),
    (["datasets", "list", "progres=off"], "closest: progress"),
    (["leaderboard", "baseline=bm25"], "leaderboard: baseline=bm25: no such option (leaderboard takes no key=value "
                                       "words); closest: --baseline"),
    (["compare", "a", "b", "metrc=mrr@10"], "closest: --metric"),
    (["decide", "fusion_weight", "rerun=true"], "decide: rerun=true: no such option (decide takes no key=value "
                                                "words); closest: --rerun"),
    (["bench", "only=scaling"], "closest: --only"),
    (["benchmark", "cosqa", "--dry-run", "paths.cahce=/c"],
     "config: paths.cahce=/c: no such key; closest: paths.cache"),
])
def test_a_mistyped_word_is_one_line_naming_the_closest(capsys, tmp_path, argv, closest):
    runs = argv[0] in ("run", "sweep")  # the commands that would write runs: none may start
    line = refused(capsys, [*argv, *([f"paths.runs={tmp_path / 'runs'}"] if runs else [])])
    assert closest in line
    if runs:
        assert not (tmp_path / "runs").exists()


def test_an_unknown_key_added_with_a_plus_is_refused_before_anything_runs(capsys, tmp_path):
    runs = f"paths.runs={tmp_path / 'runs'}"
    line = refused(capsys, ["run", "+sinse=1", runs])
    assert line.startswith("hermes-eval: error: config: sinse=1: no such key; none is close; the keys beside it: ")
    assert "seed" in line and "retriever" in line
    assert "closest: hygiene.tokenizer" in refused(capsys, ["run", "+hygiene.tokenizr=approx", runs])
    assert "closest: hydra.job" in refused(capsys, ["sweep", "+hydra.jb=1", runs])
    assert not (tmp_path / "runs").exists()


def test_the_gate_refuses_before_it_measures_or_writes(capsys, tmp_path):
    line = refused(capsys, ["gate", "fusion.dense_wieght=0.2", "--update-baseline", "--reason", "r",
                            "--reports", str(tmp_path / "reports"), "--runs", str(tmp_path / "runs")])
    assert "closest: fusion.dense_weight" in line
    assert not (tmp_path / "reports").exists() and not (tmp_path / "runs").exists()


def test_a_benchmark_refuses_before_printing_a_step(capsys):
    assert main(["benchmark", "cosqa", "--dry-run", "sinse=1"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("hermes-eval: error: config: sinse=1: no such key")
