"""The CLI only parses: words -> an importer's typed options, with one-line errors; and every
importer in the package is registered and satisfies the importer protocol."""
from __future__ import annotations

import dataclasses
import pkgutil
from pathlib import Path

import pytest

import hermes_eval.querysets.importers as importers_pkg
from hermes_eval.cli.import_options import build_options, option_names
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers import repoeval, swebench
from hermes_eval.querysets.importers.base import ImportOptions
from hermes_eval.querysets.importers.registry import IMPORTERS, importer

FIXED = {"name": "n", "dest": Path("/tmp/n")}


def test_every_importer_module_is_registered_and_typed():
    modules = {m.name for m in pkgutil.iter_modules(importers_pkg.__path__)} - {"base", "registry"}
    inside = f"{importers_pkg.__name__}."
    assert modules == {e.module.removeprefix(inside) for e in IMPORTERS.values() if e.module.startswith(inside)}
    # importers outside the package (the miner's, and Gandhi et al.'s commits, which share its strata) are
    # found by their IMPORT_FORMAT declarations too
    assert {"mined", "gandhi"} <= {e.name for e in IMPORTERS.values() if not e.module.startswith(inside)}
    for name in IMPORTERS:
        mod = importer(name)
        assert issubclass(mod.Options, ImportOptions) and callable(mod.run)
        assert mod.Options.__dataclass_params__.frozen, f"{name}: options must be frozen"
        slots = [f for f in dataclasses.fields(mod.Options) if f.metadata.get("positional")]
        assert slots and all(f.metadata.get("help") for f in slots), f"{name}: positional paths need help"


def test_words_fill_positional_fields_and_pairs_are_converted():
    opts = build_options(repoeval.Options, "repoeval", ["t.jsonl", "snap"],
                         {"context_lines": "none", "context_chars": "300", "drop_answer_in_prompt": "yes",
                          "max_queries": "5", "protocol": "sia-code"}, **FIXED)
    assert (opts.tasks, opts.snapshot) == (Path("t.jsonl"), Path("snap"))
    assert opts.context_lines is None and opts.context_chars == 300 and opts.drop_answer_in_prompt is True
    assert opts.max_queries == 5 and opts.protocol == "sia-code" and opts.answer_line_min_chars == "default"
    sw = build_options(swebench.Options, "swebench", ["lite.json"], {"repos": "a/b,c/d", "limit": "2"},
                       repos_dir=Path("/m"), **FIXED)
    assert sw.repos == ("a/b", "c/d") and sw.limit == 2 and sw.repos_dir == Path("/m")


@pytest.mark.parametrize("words,pairs,message", [
    (["only-one"], {}, r"datasets import repoeval: give TASKS SNAPSHOT \(TASKS: the RepoCoder jsonl; "),
    (["t", "s"], {"limit": "3"}, r"datasets import repoeval: option limit= does not apply; its options: .*max_queries"),
    (["t", "s"], {"context_lines": "many"}, r"context_lines='many': must be an integer or none"),
    (["t", "s"], {"drop_answer_in_prompt": "maybe"}, r"option drop_answer_in_prompt='maybe' must be true or false"),
    (["t", "s"], {"protocol": "mine"}, r"protocol='mine': use one of coderag-bench, repoeval, sia-code"),
])
def test_bad_words_are_one_line_errors(words, pairs, message):
    with pytest.raises(UserError, match=message) as err:
        build_options(repoeval.Options, "repoeval", words, pairs, **FIXED)
    assert "\n" not in str(err.value)


def test_the_cli_supplies_only_what_the_options_declare():
    assert "repos_dir" in option_names(swebench.Options)
    with pytest.raises(UserError, match="pass --repos DIR"):
        build_options(swebench.Options, "swebench", ["lite.json"], {}, **FIXED)


def test_unknown_format_lists_the_known_ones():
    with pytest.raises(UserError, match=r"^datasets import: unknown format 'trec'; use one of ") as err:
        importer("trec")
    listed = str(err.value).split("use one of ", 1)[1].split(", ")
    assert listed == sorted(IMPORTERS) and {"beir", "cosqa", "mined", "swebench", "ye"} <= set(listed)


def test_the_old_format_name_runs_the_same_importer_and_says_so_once(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", "datasets", "import", "history",
                           str(tmp_path / "no-repo"), "name=x", f"paths.datasets={tmp_path}"],
                          capture_output=True, text=True, timeout=300)
    notices = [ln for ln in proc.stderr.splitlines() if "now 'mined'" in ln]
    assert len(notices) == 1, proc.stderr
    assert proc.returncode != 0 and "no-repo" in proc.stdout + proc.stderr  # the miner's own error, not "unknown format"
    assert "unknown format" not in proc.stderr
