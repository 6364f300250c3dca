"""The BLIZZARD importer on the slice (tests/slices/blizzard): gold,
real paths, report classes, counts; and our Lucene 6.2 port's rankings over the slice's 31 files equal
the ones Lucene 6.2.0 itself gave (recorded in the slice: lucene-6.2.0-rankings.tsv). The agreement check
is tests/hermes_eval/reproduce/test_blizzard_agreement.py."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from hermes_eval.querysets.importers.blizzard import Options, run
from hermes_eval.querysets.readers.blizzard_package import QUERY_ENCODING, Package, repo_path
from retrievers.sparse.blizzard import NormClassAnalyzer
from retrievers.sparse.lucene import Lucene6BM25Index, StandardAnalyzer

SLICE = Path(__file__).resolve().parents[3] / "slices" / "blizzard"
P = "tomcat70"


def _import(tmp_path: Path, query: str = "raw", package: Path = SLICE):
    return run(Options(name=f"bz-{query}", dest=tmp_path / query, package=package, project=P, query=query))


def test_gold_paths_and_classes_come_from_the_package(tmp_path):
    qs = _import(tmp_path)
    by_bug = {q.meta["bug"]: q for q in qs.queries}
    assert sorted(by_bug) == ["37509", "43142", "47866", "48174", "49207", "49442", "49721"]
    # gold: the Goldset's Java files, at their real paths, judged whole (the file's line count)
    q = by_bug["37509"]
    assert [g.path for g in q.gold] == ["java/org/apache/juli/ClassLoaderLogManager.java"]
    text = (tmp_path / "raw" / "corpus" / q.gold[0].path).read_text()
    assert q.gold[0].start == 1 and q.gold[0].end == len(text.rstrip("\n").split("\n"))
    assert q.meta["gold_lines"] == ["java/org/apache/juli/ClassLoaderLogManager.java", "webapps/docs/changelog.xml"]
    # BR-Classes: two of each
    assert {b: by_bug[b].meta["report_class"] for b in by_bug} == {
        "47866": "ST", "49207": "ST", "48174": "PE", "49442": "PE", "43142": "NL", "49721": "NL", "37509": "PE"}
    # the report: title (the "ID – " prefix dropped, Windows-1252 decoded) then the body
    raw = (SLICE / "BR-Raw" / P / "49207.txt").read_bytes().decode("cp1252")
    title = raw.split("\n", 1)[0].split("\u2013", 1)[1].strip()
    assert by_bug["49207"].query.startswith(title) and "49207" not in by_bug["49207"].query.split("\n")[0]
    assert q.repo == P and q.kind == "bug_report_raw" and q.meta["baseline_rank"] == 1
    m = qs.manifest
    assert m["counts"]["corpus_files"] == 31 and m["counts"]["gold_lines_not_java_not_in_corpus"] == 1
    assert m["counts"]["gold_lines_not_in_corpus"] == 1 and m["skipped"] == {}
    assert m["counts"]["report_classes"] == {"NL": 2, "PE": 3, "ST": 2}


def test_corpus_paths_are_the_mapped_real_paths(tmp_path):
    _import(tmp_path)
    mapping = Package.open(SLICE).mapping(P)
    assert mapping["1.java"].endswith("/ssystems/tomcat70/java/javax/el/MapELResolver.java")
    assert repo_path(mapping["1.java"], P) == "java/javax/el/MapELResolver.java"
    written = sorted(str(p.relative_to(tmp_path / "raw" / "corpus")) for p in (tmp_path / "raw" / "corpus").rglob("*.java"))
    assert written == sorted(repo_path(v, P) for v in mapping.values())
    assert (tmp_path / "raw" / "corpus" / "java/javax/el/MapELResolver.java").read_bytes() == \
        (SLICE / "Corpus" / P / "1.java").read_bytes()


def test_baseline_queries_are_read_as_the_run_read_them(tmp_path):
    qs = _import(tmp_path, "baseline")
    lines = dict(line.split("\t", 1) for line in
                 (SLICE / "Baseline/Query" / f"{P}.txt").read_bytes().decode(QUERY_ENCODING).splitlines())
    assert {q.meta["bug"]: q.query for q in qs.queries} == lines
    assert {q.kind for q in qs.queries} == {"bug_report_baseline"}


def test_a_git_mirror_reads_like_a_checkout(tmp_path):
    repo = tmp_path / "mirror"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["cp", "-r", *[str(p) for p in SLICE.iterdir()], str(repo)], check=True)
    for cmd in (["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "slice"]):
        subprocess.run(["git", "-C", str(repo), *cmd], check=True)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo), str(bare)], check=True)
    a, b = _import(tmp_path / "a", package=SLICE), _import(tmp_path / "b", package=bare)
    assert [q.to_dict() for q in a.queries] == [q.to_dict() for q in b.queries]
    assert b.manifest["source"]["commit"] and a.manifest["source"]["commit"] is None


def _lucene_rankings() -> dict[str, list[tuple[str, int]]]:
    out = {}
    for line in (SLICE / "lucene-6.2.0-rankings.tsv").read_text().splitlines():
        bug, *hits = line.split("\t")
        out[bug] = [(h.rsplit(":", 1)[0], int(h.rsplit(":", 1)[1])) for h in hits]
    return out


def test_the_port_ranks_and_scores_as_lucene_6_2_on_the_slice():
    pkg = Package.open(SLICE)
    names = pkg.names(f"Corpus/{P}")
    assert names == sorted(names) and names[:3] == ["1.java", "10.java", "100.java"]  # Lucene's doc order
    index = Lucene6BM25Index(tokenizer=NormClassAnalyzer(), query_tokenizer=StandardAnalyzer(), max_query_words=1024)
    index.build(names, [pkg.read(f"Corpus/{P}/{n}").decode("utf-8", "replace") for n in names])
    want = _lucene_rankings()
    queries = pkg.tsv(f"Baseline/Query/{P}.txt", QUERY_ENCODING)
    assert set(want) == set(queries)
    for bug, query in queries.items():
        got = [(names[d], int(np.float32(s).view(np.int32))) for d, s in index.rank(query)]
        assert got == want[bug], bug  # same documents, same order, same float bits


def test_gold_the_corpus_loader_leaves_out_is_dropped_and_counted(tmp_path):
    """A gold file under a folder the loader skips (eclipse.pde.ui keeps sources under build/) can never be
    retrieved: the report keeps its other gold, or is skipped and counted when it has none; runs then load
    every gold path the set names."""
    import shutil

    from hermes_eval.corpus import load_corpus

    package = tmp_path / "package"
    shutil.copytree(SLICE, package)
    ckeys = package / "Lucene-Index2File-Mapping" / f"{P}.ckeys"
    moved = "\\tomcat70\\java\\org\\apache\\catalina\\startup\\HostConfig.java"
    assert moved in ckeys.read_text()
    under_build = moved.replace("\\tomcat70\\java", "\\tomcat70\\build\\java")
    ckeys.write_text(ckeys.read_text().replace(moved, under_build))
    before, after = _import(tmp_path / "a"), _import(tmp_path / "b", package=package)
    assert "tomcat70/43142" in {q.qid for q in before.queries}
    assert "tomcat70/43142" not in {q.qid for q in after.queries}  # its only gold file is HostConfig.java
    assert after.manifest["skipped"]["gold_only_where_the_loader_skips"] == 1
    assert after.manifest["counts"]["corpus_files_the_loader_skips"] == 1
    loaded = {f.path for f in load_corpus([str(tmp_path / "b" / "raw" / "corpus")], name="b").files}
    assert all(g.path in loaded for q in after.queries for g in q.gold)
    assert "gold_files_the_loader_skips" not in before.manifest["counts"]
