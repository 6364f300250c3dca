"""`hermes-eval benchmark` runs what the records say: the make aliases print (--dry-run) the very commands the
hand-written Makefile targets ran; `datasets --help` lists every importer and every recorded variant; a
record with a mistake is one line naming its file and field."""
from __future__ import annotations

import shlex

import pytest

from hermes_eval.cli.main import main
from hermes_eval.config.benchmarks import benchmarks, boards
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError

D, M = "bench-data", ".cache/mirrors"  # any folder names: a dry run reads neither
SWE_IMPORT = f"hermes-eval datasets import swebench {D}/swe-bench"
RE_IMPORT = (f"hermes-eval datasets import repoeval {D}/repoeval/function_level_completion_2k_context_codex.test.jsonl "
             f"{D}/repoeval/repositories/function_level")
SIX = ("amazon-science_patchcore-inspection,deepmind_tracr,facebookresearch_omnivore,google_lightweight_mmm,"
       "lucidrains_imagen-pytorch,maxhumber_redframes")
# what the Makefile's targets ran before the records, with BENCH_DATA and HERMES_MIRRORS set to D and M
MAKEFILE = {
    "--board benchmarks": [
        f"hermes-eval datasets import cosqa {D}/cosqa name=cosqa-test",
        f"hermes-eval datasets import cosqa {D}/cosqa ids=pairs name=cosqa-test-pairs",
        f"{SWE_IMPORT}/lite.json --repos {M} repos=psf/requests,pallets/flask,pytest-dev/pytest limit=6 name=swe-lite",
        "hermes-eval sweep experiment=benchmarks paths.runs=runs/benchmarks hydra.launcher.n_jobs=1",
        "hermes-eval leaderboard --runs runs/benchmarks --out reports/benchmarks --anchors benchmarks --merge"],
    "swebench": [
        f"{SWE_IMPORT}/lite.json --repos {M} name=swebench-lite",
        f"{SWE_IMPORT}/verified.json --repos {M} name=swebench-verified",
        f"{SWE_IMPORT}/lite.json --repos {M} subset=locagent274 protocol=locagent name=swebench-lite-locagent",
        f"{SWE_IMPORT}/lite.json --repos {M} protocol=coderag-bench name=swebench-lite-coderag",
        f"{SWE_IMPORT}/verified.json --repos {M} protocol=mteb name=swebench-verified-mteb",
        f"{SWE_IMPORT}/lite.json --repos {M} releases=true name=swebench-lite-releases",
        f"{SWE_IMPORT}/verified.json --repos {M} releases=true name=swebench-verified-releases",
        f"{SWE_IMPORT}/lite.json --repos {M} releases=true subset=locagent274 protocol=locagent "
        "name=swebench-lite-locagent-releases",
        f"{SWE_IMPORT}/lite.json --repos {M} releases=true protocol=coderag-bench name=swebench-lite-coderag-releases",
        "hermes-eval sweep experiment=swebench paths.runs=runs/swebench",
        "hermes-eval sweep experiment=swebench_protocols paths.runs=runs/swebench",
        # since issue 54, MTEB's pooled set (MTEB's BM25 only) is its own sweep
        "hermes-eval sweep experiment=swebench_mteb paths.runs=runs/swebench",
        "hermes-eval leaderboard --runs runs/swebench --out reports/benchmarks/swebench --anchors swebench --merge"],
    "swebench --group dense --steps sweep,board": [
        "hermes-eval sweep experiment=swebench_dense paths.runs=runs/swebench hydra.launcher.n_jobs=1",
        "hermes-eval sweep experiment=swebench_dense_mteb paths.runs=runs/swebench",
        "hermes-eval sweep experiment=swebench_dense_functions paths.runs=runs/swebench hydra.launcher.n_jobs=1",
        "hermes-eval leaderboard --runs runs/swebench --out reports/benchmarks/swebench --anchors swebench --merge"],
    "repoeval": [
        f"{RE_IMPORT} protocol=coderag-bench name=repoeval-coderag",
        f"{RE_IMPORT} repos={SIX} context_lines=none name=repoeval-masked",
        f"{RE_IMPORT} repos={SIX} context_lines=20 name=repoeval-last20",
        "hermes-eval sweep experiment=repoeval paths.runs=runs/repoeval hydra.launcher.n_jobs=1",
        "hermes-eval leaderboard --runs runs/repoeval --out reports/benchmarks/repoeval --anchors repoeval --merge"],
}


def _dry_run(words: str, capsys) -> list[str]:
    assert main(["benchmark", *shlex.split(words), "--data", D, "--mirrors", M, "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"export HERMES_BENCH_DATA={D} HERMES_MIRRORS={M}"
    return [line.split("] ", 1)[1] for line in out[1:]]


@pytest.mark.parametrize("words", list(MAKEFILE))
def test_the_make_aliases_run_what_the_makefile_ran(words, capsys):
    assert _dry_run(words, capsys) == MAKEFILE[words]


def test_chosen_variants_limit_the_imports_and_each_sweep_to_their_overlays(capsys):
    steps = _dry_run("swebench --variants swebench-lite,swebench-verified-mteb --group all paths.cache=/c", capsys)
    assert steps[:2] == [f"{SWE_IMPORT}/lite.json --repos {M} name=swebench-lite paths.cache=/c",
                         f"{SWE_IMPORT}/verified.json --repos {M} protocol=mteb name=swebench-verified-mteb "
                         "paths.cache=/c"]
    assert steps[2:5] == [
        "hermes-eval sweep experiment=swebench paths.runs=runs/swebench "
        "+benchmark=swebench_lite_file,swebench_lite_functions paths.cache=/c",
        "hermes-eval sweep experiment=swebench_mteb paths.runs=runs/swebench paths.cache=/c",
        "hermes-eval sweep experiment=swebench_dense paths.runs=runs/swebench +benchmark=swebench_lite_file "
        "hydra.launcher.n_jobs=1 paths.cache=/c"]
    assert steps[-1].startswith("hermes-eval leaderboard --runs runs/swebench ")


def test_datasets_help_lists_every_importer_and_every_recorded_variant(capsys):
    with pytest.raises(SystemExit):
        main(["datasets", "--help"])
    out = capsys.readouterr().out
    assert "swebench INSTANCES --repos DIR [repos=..]" in out and "cosqa FOLDER [split=..] [ids=..]" in out
    for b in benchmarks(CONF_DIR).values():
        assert f"{b.name}: {b.title}" in " ".join(out.split())
        assert all(v.name in out for v in b.variants)


def test_every_board_gathers_the_anchors_and_columns_of_its_records():
    known = boards(CONF_DIR)
    assert {n: (b.out, b.runs) for n, b in known.items()} == {
        "benchmarks": ("reports/benchmarks", "runs/benchmarks"),
        "swebench": ("reports/benchmarks/swebench", "runs/swebench"),
        "repoeval": ("reports/benchmarks/repoeval", "runs/repoeval"),
        "history": ("reports/benchmarks/history", "runs/history")}
    assert [r.name for r in known["benchmarks"].records] == ["cosqa", "swe-lite"]
    assert [r.name for r in known["history"].records] == ["bench4bl", "blizzard", "gandhi", "mined", "ye"]
    assert {n: len(b.anchors) for n, b in known.items()} == {"benchmarks": 3, "swebench": 12 + 8, "repoeval": 3,
                                                             "history": 12 + 3 + 1 + 15}
    assert {"file_map", "file_map_found", "file_mrr", "file_hit@10"} <= set(known["history"].columns)
    assert known["benchmarks"].columns == ("file_recall@1", "file_recall@5", "line_coverage@5")


def test_a_record_with_a_mistake_is_one_line_naming_its_file_and_field(tmp_path):
    src = (CONF_DIR / "benchmarks" / "cosqa.yaml").read_text()
    for old, new, error in [
        ("main_score: ndcg@10\n", "main_score: ndcg@10\nboard_title: x\n", r"cosqa.yaml: unknown field 'board_title'"),
        ("options: {ids: pairs}", "options: ids", r"variants.cosqa-test-pairs: field 'options' must be a mapping"),
        ("overlays: [cosqa, cosqa_pairs,", "overlays: [cosqa, cosqa_typo,", r"sweeps.benchmarks: overlay 'cosqa_typo'"),
        ("  - querysets: [cosqa-test, cosqa-test-pairs]\n    published: \"MTEB CosQA (CoIR test set): bm25s\"",
         "  - querysets: [cosqa-test, cosqa-test-pair]\n    published: \"MTEB CosQA (CoIR test set): bm25s\"",
         r"anchors\[1\]: query set 'cosqa-test-pair' is not a variant"),
        ("    value: 0.1875", "    value: lots", r"anchors\[1\]: field 'value' must be a number"),
        ("importer:\n  name: cosqa\n", "importer:\n  options: {split: dev}\n", r"importer: field 'name' is missing")]:
        assert old in src, old
        conf = tmp_path / str(len(list(tmp_path.iterdir()))) / "conf"
        (conf / "benchmarks").mkdir(parents=True)
        (conf / "benchmarks" / "cosqa.yaml").write_text(src.replace(old, new, 1))
        with pytest.raises(UserError, match=error):
            benchmarks(conf)
