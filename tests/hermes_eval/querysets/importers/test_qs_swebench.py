"""SWE-bench import: gold from the golden patch at base_commit, one snapshot per commit, each query
searched in its own snapshot, unchanged files chunked once, missing repositories skipped and counted."""
from __future__ import annotations

import json
import subprocess

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.patches import parse_patch, ranges
from hermes_eval.querysets.importers import swebench

PATCH = """diff --git a/pkg/calc.py b/pkg/calc.py
--- a/pkg/calc.py
+++ b/pkg/calc.py
@@ -2,4 +2,5 @@ def add(a, b):
     return a + b
 
 def div(a, b):
-    return a / b
+    if b == 0:
+        raise ZeroDivisionError("b")
+    return a / b
@@ -10,2 +11,3 @@ def mul(a, b):
 def neg(a):
+    # negate
     return -a
diff --git a/pkg/new.py b/pkg/new.py
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1 @@
+X = 1
"""

CALC = ("def add(a, b):\n    return a + b\n\ndef div(a, b):\n    return a / b\n\n"
        "def mul(a, b):\n    return a * b\n\ndef neg(a):\n    return -a\n")


def test_patch_gold_is_changed_old_lines_and_insertions_anchored():
    changes, created = parse_patch(PATCH)
    assert created == ["pkg/new.py"]
    [calc] = changes
    assert calc.path == "pkg/calc.py" and calc.hunks == ((2, 4), (10, 2))
    # line 5 replaced; the comment inserted after line 10 (`def neg`) is anchored there
    assert ranges(calc) == [(5, 5), (10, 10)]


@pytest.fixture
def swe(tmp_path, git_repo):
    repos = tmp_path / "mirrors"
    shas = git_repo(repos / "acme+calc", [{"pkg/calc.py": CALC, "pkg/util.py": "def helper():\n    return 1\n"},
                                          {"pkg/util.py": "def helper():\n    return 2\n"}])
    mirror = repos / "acme+calc" / "repo"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repos / "acme+calc"), str(mirror)], check=True)
    rows = [{"instance_id": f"acme__calc-{i}", "repo": "acme/calc", "base_commit": sha,
             "problem_statement": "div crashes with ZeroDivisionError when b is zero", "golden_patch": PATCH}
            for i, sha in enumerate(shas)]
    rows.append({"instance_id": "other__x-1", "repo": "other/x", "base_commit": shas[0],
                 "problem_statement": "p", "golden_patch": PATCH})
    rows.append({"instance_id": "acme__calc-9", "repo": "acme/calc", "base_commit": "f" * 40,
                 "problem_statement": "p", "golden_patch": PATCH})
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    return tmp_path, repos, shas


def test_import_scopes_gold_per_snapshot_and_counts_what_it_skips(swe):
    tmp, repos, shas = swe
    qs = swebench.run(swebench.Options(instances=tmp / "lite.json", dest=tmp / "ds", name="swe", repos_dir=repos,
                                       cache_dir=tmp / "cache"))
    assert [q.qid for q in qs.queries] == ["acme__calc-0", "acme__calc-1"]
    assert qs.manifest["skipped"]["repo_missing"] == 1 and qs.manifest["skipped"]["commit_missing"] == 1
    assert qs.manifest["missing_repos"] == ["other/x"]
    q0 = qs.queries[0]
    assert q0.meta["scope"] == f"calc@{shas[0][:8]}/" and q0.repo == "acme/calc"
    assert [(g.path, g.start, g.end) for g in q0.gold] == [(f"calc@{shas[0][:8]}/pkg/calc.py", 5, 5),
                                                           (f"calc@{shas[0][:8]}/pkg/calc.py", 10, 10)]
    assert len(qs.manifest["corpus_sources"]) == 2


def test_no_repository_at_all_is_one_clear_line(swe):
    tmp, _, _ = swe
    with pytest.raises(UserError, match="no instance has its repository under .*other/x"):
        swebench.run(swebench.Options(instances=tmp / "lite.json", dest=tmp / "ds", name="swe",
                                      repos_dir=tmp / "empty", cache_dir=tmp / "cache"))


def _run_imported(swe, retriever: str):
    """Import the fixture's instances and run ``retriever`` over their snapshots (python_ast chunks)."""
    from hermes_eval.api import run
    from hermes_eval.config.compose import compose
    from hermes_eval.querysets.store import save_queryset

    tmp, repos, _ = swe
    datasets = tmp / "datasets"
    qs = swebench.run(swebench.Options(instances=tmp / "lite.json", dest=datasets / "swe", name="swe",
                                       repos_dir=repos, cache_dir=tmp / "cache"))
    save_queryset(qs, datasets / "swe")
    sources = ",".join(qs.manifest["corpus_sources"])
    return run(compose(["queryset=imported", "queryset.name=swe", "corpus.name=swe", f"corpus.sources=[{sources}]",
                        f"retriever={retriever}", "chunker=python_ast", f"paths.datasets={datasets}",
                        f"paths.runs={tmp / 'runs'}", f"paths.cache={tmp / 'cache'}", "bootstrap=50", "warmup=0",
                        "+hygiene.tokenizer=approx"]))


def test_run_searches_each_snapshot_and_reuses_unchanged_files(swe):
    shas = swe[2]
    out = _run_imported(swe, "bm25")
    assert out.status == "ok", out.record.get("error")
    snaps = out.record["snapshots"]
    first, second = (snaps[f"calc@{s[:8]}/"] for s in shas)
    assert first["files_reused"] == 0 and second["files"] == 2 and second["files_reused"] == 1  # calc.py same
    assert second["chunks_reused"] == second["chunks"] - 1  # only util.py's one chunk made anew
    work = out.record["snapshot_work"]  # built in the set's order, whatever order the sorted keys show
    assert [work[f"calc@{s[:8]}/"]["position"] for s in shas] == [0, 1]
    assert work[f"calc@{shas[1][:8]}/"]["texts_tokenized"]["sparse"] < work[f"calc@{shas[0][:8]}/"]["texts_tokenized"]["sparse"]
    trec = (out.run_dir / "run.trec").read_text().splitlines()
    for line in trec:  # every hit lies in its own query's snapshot
        qid, _, doc = line.split()[:3]
        assert doc.startswith(f"calc@{shas[int(qid[-1])][:8]}/")
    assert out.record["metrics"]["file_recall@1"]["mean"] == 1.0
    # calc.py is the same file in both snapshots, not a twin: duplicates count within a snapshot
    assert (out.record["hygiene"]["duplicate_docs"], out.record["hygiene"]["twin_gold"]) == (0, 0)


def test_cli_takes_repos_before_key_value_words(swe, capsys):
    from hermes_eval.cli.main import main

    tmp, repos, shas = swe
    base = [f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp / "lite.json"), "--repos", str(repos),
                 "repos=acme/calc", "limit=1", "name=swe-one", *base]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert "'over_limit': 1" in out[-2] and "'not_selected': 1" in out[-2]
    assert out[-1].startswith("hermes-eval run ") and f"repo@{shas[0]}" in out[-1]


def test_excluded_files_stay_out_of_the_corpus_and_the_printed_run_indexes_the_same(swe, capsys):
    """exclude= (e.g. LocAgent's test-file globs) is applied at import, where the set's corpus
    fingerprint is fixed, and the printed run command carries it, so the run indexes the same files."""
    import shlex

    from hermes_eval.cli.main import main

    tmp, repos, shas = swe
    base = [f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp / "lite.json"), "--repos", str(repos),
                 "repos=acme/calc", "exclude=*/pkg/util.py", "name=swe-ex", *base]) == 0
    cmd = capsys.readouterr().out.strip().splitlines()[-1]
    assert "'++corpus.exclude=[*/pkg/util.py]'" in cmd
    words = shlex.split(cmd)[2:]  # after "hermes-eval run"
    assert main(["run", *words, *base, f"paths.runs={tmp / 'runs'}", "retriever=bm25", "chunker=python_ast",
                 "bootstrap=50", "warmup=0", "+hygiene.tokenizer=approx", "progress=off"]) == 0
    [record] = [json.loads(p.read_text()) for p in (tmp / "runs").glob("*/record.json")]
    assert record["status"] == "ok", record.get("error")
    assert record["corpus_info"]["files"] == 2 and record["corpus_info"]["skipped"]["excluded"] == 2  # util.py x 2


@pytest.mark.parametrize("rule, kept", [
    ("coderag-bench", ["pkg/attest_util.py", "pkg/calc.py", "pkg/contest.py", "pkg/util.py"]),
    ("locagent", ["pkg/Test_Upper.py", "pkg/attest_util.py", "pkg/calc.py", "pkg/contest.py", "pkg/testing/helper.py",
                  "pkg/util.py", "src/unit.test.py"])])
def test_protocols_keep_the_published_corpus_and_the_printed_run_indexes_the_same(tmp_path, git_repo, capsys, rule,
                                                                                   kept):
    """protocol=coderag-bench drops a .py file whose path has the word test/tests/testing (split on space,
    _, / and ., any case), as CodeRAG-Bench's is_test; protocol=locagent drops LocAgent's test globs; both
    keep .py files only. The printed run indexes the same files (the set's fingerprint holds)."""
    import shlex

    from hermes_eval.cli.main import main

    files = {"pkg/calc.py": CALC, "pkg/util.py": "def helper():\n    return 1\n", "README.md": "# calc\n",
             "pkg/testing/helper.py": "H = 1\n", "pkg/test_calc.py": "T = 1\n", "tests/x.py": "X = 1\n",
             "pkg/contest.py": "C = 1\n", "pkg/Test_Upper.py": "U = 1\n", "pkg/attest_util.py": "A = 1\n",
             "src/unit.test.py": "S = 1\n", "pkg/calc_test.py": "D = 1\n"}
    repos = tmp_path / "mirrors"
    [sha] = git_repo(repos / "acme+calc", [files])
    rows = [{"instance_id": "acme__calc-1", "repo": "acme/calc", "base_commit": sha, "problem_statement": "div by zero",
             "golden_patch": PATCH}]
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp_path / "lite.json"), "--repos", str(repos),
                 f"protocol={rule}", "name=swe-p", *base]) == 0
    cmd = capsys.readouterr().out.strip().splitlines()[-1]
    manifest = json.loads((tmp_path / "ds" / "swe-p" / "manifest.json").read_text())
    assert manifest["protocol"] == rule and manifest["corpus_languages"] == ["python"]
    words = shlex.split(cmd)[2:]
    assert main(["run", *words, *base, f"paths.runs={tmp_path / 'runs'}", "retriever=bm25", "chunker=whole_file",
                 "bootstrap=50", "warmup=0", "+hygiene.tokenizer=approx", "progress=off"]) == 0
    [record] = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*/record.json")]
    assert record["status"] == "ok", record.get("error")
    from hermes_eval.corpus import load_corpus

    corpus = load_corpus(manifest["corpus_sources"], cache_dir=tmp_path / "cache", exclude=manifest["corpus_exclude"],
                         languages=manifest["corpus_languages"])
    assert [f.path for f in corpus.files] == kept and record["corpus_info"]["files"] == len(kept)
    # corpus=imported reads sources, excludes and languages from the manifest: the same indexed corpus
    assert main(["run", "queryset=imported", "queryset.name=swe-p", "corpus=imported", *base,
                 f"paths.runs={tmp_path / 'runs2'}", "retriever=bm25", "chunker=whole_file", "bootstrap=50",
                 "warmup=0", "+hygiene.tokenizer=approx", "progress=off"]) == 0
    [again] = [json.loads(p.read_text()) for p in (tmp_path / "runs2").glob("*/record.json")]
    assert again["status"] == "ok", again.get("error")
    assert again["indexed_fingerprint"] == record["indexed_fingerprint"] and again["metrics"] == record["metrics"]


def _wheel(folder, version: str, mod_text: str) -> None:
    """A real wheel of package ``acme-pkg`` (its module at ``acme/calc.py``) for pip to find locally."""
    import zipfile

    dist = f"acme_pkg-{version}.dist-info"
    with zipfile.ZipFile(folder / f"acme_pkg-{version}-py3-none-any.whl", "w") as z:
        z.writestr("acme/calc.py", mod_text)
        z.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: acme-pkg\nVersion: {version}\n")
        z.writestr(f"{dist}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{dist}/RECORD", "")


def test_releases_stand_in_for_a_repository_that_is_not_mirrored(tmp_path, monkeypatch, capsys):
    """releases=true: an instance whose repository is not under --repos is searched in the release its
    golden patch applies to with exact context (here the wheel whose hunks moved least), gold moved too;
    the wheels come through pip from a local folder (no network)."""
    from hermes_eval.cli.main import main
    from hermes_eval.querysets.readers import swebench_releases as rel

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _wheel(wheels, "1.0", "# 1.0\n# notes\n" + CALC)  # both hunks 2 lines down
    _wheel(wheels, "1.1", CALC.replace("return a + b", "return b + a"))  # a context line differs: no
    _wheel(wheels, "1.2", "# 1.2\n" + CALC)  # 1 line down: the nearest
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setitem(rel.RELEASES, "acme/calc", rel.Releases("acme/calc", "acme-pkg", ("1.0", "1.1", "1.2")))
    import difflib

    fixed = CALC.replace("    return a / b\n", "    if b == 0:\n        raise ZeroDivisionError\n    return a / b\n")
    patch = "".join(difflib.unified_diff(CALC.splitlines(True), fixed.splitlines(True), "a/acme/calc.py",
                                         "b/acme/calc.py", n=3))
    rows = [{"instance_id": "acme__calc-1", "repo": "acme/calc", "base_commit": "0" * 40,
             "problem_statement": "div crashes on zero", "golden_patch": patch},
            {"instance_id": "acme__calc-2", "repo": "acme/calc", "base_commit": "0" * 40,
             "problem_statement": "never applies", "golden_patch": patch.replace(" def mul(a, b):", " def nope(a, b):")}]
    (tmp_path / "lite.json").write_text(json.dumps(rows))
    (tmp_path / "mirrors").mkdir()
    base = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp_path / "lite.json"), "--repos", str(tmp_path / "mirrors"),
                 "releases=true", "name=swe-rel", *base]) == 0
    manifest = json.loads((tmp_path / "ds" / "swe-rel" / "manifest.json").read_text())
    assert manifest["corpus_sources"] == ["wheel:acme-pkg==1.2"] and manifest["skipped"]["no_exact_release"] == 1
    assert manifest["releases"]["per_repo"] == {"acme/calc": ["acme-pkg==1.2"]}
    from hermes_eval.querysets.store import load_queryset

    [q] = load_queryset(tmp_path / "ds" / "swe-rel").queries
    assert [(g.path, g.start, g.end) for g in q.gold] == [("acme/calc.py", 5, 5)]  # line 4 at base, one down
    assert ("# 1.2\n" + CALC).split("\n")[4] == CALC.split("\n")[3] == "def div(a, b):"
    assert main(["run", "queryset=imported", "queryset.name=swe-rel", "corpus=imported", *base, "retriever=bm25",
                 f"paths.runs={tmp_path / 'runs'}", "chunker=whole_file", "bootstrap=50", "warmup=0",
                 "+hygiene.tokenizer=approx", "progress=off"]) == 0


def test_a_dense_arm_over_snapshots_loads_its_model_once_and_embeds_only_new_texts(swe, monkeypatch):
    from retrievers.embedders.sentence_transformer import SentenceTransformerEmbedder

    loads = []
    load = SentenceTransformerEmbedder._load
    monkeypatch.setattr(SentenceTransformerEmbedder, "_load", lambda self: (loads.append(self), load(self))[1])
    shas = swe[2]
    out = _run_imported(swe, "hybrid")
    assert out.status == "ok", out.record.get("error")
    # one model for both snapshots (a model per snapshot was cyclic garbage); the embedder built to read its
    # identity for the record (stages/reuse.py) loads none
    assert len(loads) == 1
    first, second = (out.record["snapshot_work"][f"calc@{s[:8]}/"] for s in shas)
    assert (first["embeddings_cached"], second["embedded"]) == (0, 1)  # util.py's one chunk is new
    # calc.py's chunks come from the set's one vector store: not embedded, not even read from the cache again
    assert second["embeddings_cached"] == 0
    assert (first["vectors_stored"], second["vectors_stored"]) == (first["embedded"], 1)
    assert first["embedded"] + second["embedded"] == out.record["embeddings"]["computed"]
    store = out.record["embeddings"]["vector_store"]
    assert store["rows"] == first["embedded"] + 1 and store["modes"] == {"dense": "exact_members"}


def test_mteb_protocol_pools_every_snapshot_into_one_corpus_with_identical_files_once(swe, capsys):
    """protocol=mteb (MTEB's SWEbenchCodeRetrieval): no query is scoped, every query searches every snapshot's
    .py files, and the printed run sets dedupe=true, so calc.py (the same text in both snapshots) is one
    document; its gold moves to the copy kept, util.py (changed) stays two documents."""
    import shlex

    from hermes_eval.cli.main import main

    tmp, repos, shas = swe
    base = [f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    assert main(["datasets", "import", "swebench", str(tmp / "lite.json"), "--repos", str(repos),
                 "repos=acme/calc", "protocol=mteb", "name=swe-mteb", *base]) == 0
    cmd = capsys.readouterr().out.strip().splitlines()[-1]
    manifest = json.loads((tmp / "ds" / "swe-mteb" / "manifest.json").read_text())
    assert manifest["protocol"] == "mteb" and manifest["scoped"] is False and "dedupe=true" in cmd
    assert manifest["dedupe_by"] == "repository_path"
    from hermes_eval.querysets.store import load_queryset

    queries = load_queryset(tmp / "ds" / "swe-mteb").queries
    assert [q.meta["scope"] for q in queries] == ["", ""]
    assert [q.gold[0].path for q in queries] == [f"calc@{s[:8]}/pkg/calc.py" for s in shas]
    assert main(["run", *shlex.split(cmd)[2:], *base, f"paths.runs={tmp / 'runs'}", "retriever=mteb_bm25",
                 "chunker=whole_file", "bootstrap=50", "warmup=0", "+hygiene.tokenizer=approx", "progress=off"]) == 0
    [record] = [json.loads(p.read_text()) for p in (tmp / "runs").glob("*/record.json")]
    assert record["status"] == "ok", record.get("error")
    assert record["snapshots"] is None  # one index over the pool, not one per snapshot
    assert record["corpus_info"]["files"] == 4 and record["chunks"]["count"] == 3  # calc.py once, util.py twice
    kept_calc = min(f"calc@{s[:8]}/pkg/calc.py" for s in shas)
    [trec] = (tmp / "runs").glob("*/run.trec")
    firsts = [line.split()[2] for line in trec.read_text().splitlines() if line.split()[3] == "1"]
    assert len(firsts) == 2 and all(doc.startswith(kept_calc + ":") for doc in firsts)  # the one calc.py, first
    assert record["metrics"]["file_recall@1"]["mean"] == 1.0
