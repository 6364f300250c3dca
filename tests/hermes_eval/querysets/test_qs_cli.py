"""`hermes-eval datasets generate|check|import|export` end to end on a tmp repository."""
from __future__ import annotations

import json

from hermes_eval.cli.main import main


def _base(tmp_path, shop):
    return [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}", "corpus.name=shop",
            f"corpus.sources=[{shop}]", "+hygiene.tokenizer=approx"]


def test_generate_check_and_export(tmp_path, shop, capsys):
    base = _base(tmp_path, shop)
    assert main(["datasets", "generate", "repoeval_line", "sia_code", *base,
                 "queryset.generator.min_context_chars=10"]) == 0
    out = capsys.readouterr().out
    assert "shop-repoeval-line" in out and "shop-sia-code" in out
    assert main(["datasets", "check", "sia_code", *base, "queryset.generator.min_context_chars=10"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)  # stdout is the JSON alone; the warning goes to stderr
    assert report["leak_share"] == 1.0 and report["protocol"] == "sia-code"
    assert "WARNING: leak_share 100.0%" in captured.err and "inflated" in captured.err
    assert main(["datasets", "check", "shop-repoeval-line", *base]) == 0  # by dataset name
    assert json.loads(capsys.readouterr().out)["leak_share"] == 0.0
    assert main(["datasets", "export", "beir", str(tmp_path / "beir"), "queryset=repoeval_line",
                 "chunker=lines", *base, "queryset.generator.min_context_chars=10"]) == 0
    assert (tmp_path / "beir" / "qrels" / "test.tsv").is_file()
    assert main(["datasets", "import", "beir", str(tmp_path / "beir"), "name=again", *base]) == 0
    assert "queryset=imported queryset.name=again" in capsys.readouterr().out
    assert main(["datasets", "check", "again", *base]) == 0
    assert json.loads(capsys.readouterr().out)["gold_outside_corpus"] == 0


def test_stale_generator_settings_are_refused(tmp_path, shop, capsys):
    base = _base(tmp_path, shop)
    assert main(["datasets", "generate", "symbols", *base]) == 0
    assert main(["datasets", "check", "symbols", *base, "queryset.generator.min_words=3"]) == 2
    assert "min_words: 2 -> 3" in capsys.readouterr().err


def test_malformed_import_is_one_line_error(tmp_path, shop, capsys):
    folder = tmp_path / "bad"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "a", "text": "x"}\n')
    (folder / "queries.jsonl").write_text('{"_id": "q", "text": "y"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq\ta\t1\nq\ta\n")
    assert main(["datasets", "import", "beir", str(folder), *_base(tmp_path, shop)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "test.tsv line 3" in err and "Traceback" not in err


def test_a_set_made_by_other_generator_code_is_kept_with_a_warning(tmp_path, shop, capsys):
    """Generator identity is in the manifest; a stored set made by other code is served as
    stored (committed gold stays fixed) but never silently: the warning names the regenerate command."""
    from hermes_eval.querysets.generator_key import generator_key

    base = _base(tmp_path, shop)
    assert main(["datasets", "generate", "symbols", *base]) == 0
    manifest_path = tmp_path / "ds" / "shop-symbols" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    assert manifest["generator_code"] == generator_key(manifest["generator_config"])
    capsys.readouterr()
    assert main(["datasets", "check", "symbols", *base]) == 0
    assert "other generator code" not in capsys.readouterr().err
    manifest["generator_code"] = "0" * 16  # what an edit of the generator's module would leave behind
    manifest_path.write_text(json.dumps(manifest))
    assert main(["datasets", "check", "symbols", *base]) == 0
    err = capsys.readouterr().err
    assert "other generator code (0000000000000000" in err
    assert "`hermes-eval datasets generate --force` with this run's queryset" in err
    assert main(["datasets", "generate", "--force", "symbols", *base]) == 0  # the fix it names works
    regenerated = json.loads(manifest_path.read_text())
    assert regenerated["generator_code"] == generator_key(regenerated["generator_config"])
