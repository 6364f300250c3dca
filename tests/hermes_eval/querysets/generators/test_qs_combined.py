"""The polyglot query set configs, generated and checked through the CLI on the fixture corpus,
and the combined generator's language-balanced pooling."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hermes_eval.cli.main import main
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.generators.combined import CombinedQueries
from hermes_eval.querysets.generators.doc_comments import DocCommentQueries
from hermes_eval.querysets.generators.markdown_sections import MarkdownSectionQueries
from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from hermes_eval.querysets.generators.repoeval_polyglot import PolyglotRepoEvalQueries

from qs_repos import POLYGLOT


def _base(tmp_path, extra=()):
    sources = ",".join([str(p) for p in sorted(POLYGLOT.iterdir())] + [str(e) for e in extra])
    return [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}", "corpus.name=fx",
            f"corpus.sources=[{sources}]", "+hygiene.tokenizer=approx"]


def test_configs_generate_and_pass_hygiene(tmp_path, capsys):
    base = _base(tmp_path)
    assert main(["datasets", "generate", "doc_comments", "repoeval_function_polyglot", "markdown_sections",
                 "polyglot", *base]) == 0
    out = capsys.readouterr().out
    for name in ("fx-doc-comments", "fx-repoeval-function-polyglot", "fx-markdown-sections", "fx-polyglot"):
        assert name in out
    manifest = json.loads((tmp_path / "ds" / "fx-polyglot" / "manifest.json").read_text())
    assert set(manifest["per_language"]) == {"go", "rust", "javascript", "typescript", "markdown"}
    assert manifest["per_kind"].keys() == {"doc_comment", "repoeval-function", "markdown_section"}
    for name in ("doc_comments", "markdown_sections", "polyglot"):
        assert main(["datasets", "check", name, *base]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["self_retrieval_share"] == 0.0 and report["leak_share"] == 0.0, (name, report)


def test_combined_pools_parts_round_robin_over_languages(polyglot_corpus, shop_corpus):
    corpus = replace(polyglot_corpus, files=polyglot_corpus.files + shop_corpus.files)
    parts = (DocCommentQueries(max_queries=1000), RepoEvalQueries(level="function", min_context_chars=10,
                                                                  max_queries=1000),
             PolyglotRepoEvalQueries(max_queries=1000), MarkdownSectionQueries(max_queries=1000))
    qs = CombinedQueries(parts=parts, max_queries=18, seed=2).generate(corpus, "all")
    counts = qs.manifest["per_language"]
    assert set(counts) == {"python", "go", "rust", "javascript", "typescript", "markdown"}
    assert max(counts.values()) - min(counts.values()) <= 1  # every language has at least 3 candidates
    python = [q for q in qs.queries if q.meta["language"] == "python"]
    assert {q.kind for q in python} <= {"docstring", "repoeval-function"}
    assert [p["generator"] for p in qs.manifest["parts"]] == ["doc_comment", "repoeval-function",
                                                              "repoeval-function-polyglot", "markdown_section"]
    again = CombinedQueries(parts=parts, max_queries=18, seed=2).generate(corpus, "all")
    assert [q.to_dict() for q in again.queries] == [q.to_dict() for q in qs.queries]
    with pytest.raises(UserError, match="parts is empty"):
        CombinedQueries().generate(corpus, "none")
