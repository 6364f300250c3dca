"""The Bench4BL importer: the BugLocator XMLs read (file, checkout, git mirror), each subject's declared path
rule (path, suffix at a folder boundary, a stripped prefix), gold as whole Java files of the tree at the
ref, and what is counted (fixed files not in the tree or not indexed, reports skipped), on tiny repositories
the tests build and on the slice (tests/slices/bench4bl, its sources put in repositories tagged as the
record's refs). Nothing reads a mirror or the network."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hermes_eval.config.benchmarks import benchmarks
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.importers.bench4bl import Options, run
from hermes_eval.querysets.readers.buglocator_reports import FOLDER, PathRule, TreeIndex, parse, read

SLICE = Path(__file__).resolve().parents[3] / "slices" / "bench4bl"
RECORD = benchmarks(CONF_DIR)["bench4bl"]

XML = """<?xml version="1.0" encoding="UTF-8"?><BugReportRepository product="Toy">
  <bug id="1" reportTime="2010-01-01 10:00:00">
    <summary>Parser crashes on empty input</summary>
    <description>NullPointerException at org.toy.Parser.parse &amp;quot;x&amp;quot;</description>
    <commit commitTime="2010-01-02 10:00:00"/>
    <fixedFiles>
      <file>old/prefix/src/org/toy/Parser.java</file>
      <file>old/prefix/src/org/toy/NewTest.java</file>
      <file>old/prefix/docs/changes.xml</file>
    </fixedFiles>
  </bug>
  <bug id="2" reportTime="2010-02-01 10:00:00">
    <summary>Only a file the fix added</summary>
    <description/>
    <fixedFiles>
      <file>old/prefix/src/org/toy/Added.java</file>
    </fixedFiles>
  </bug>
  <bug id="3" reportTime="2010-03-01 10:00:00">
    <summary>Widget flickers</summary>
    <description>on every platform</description>
    <fixedFiles>
      <file>old/prefix/org/toy/widgets/Widget.java</file>
    </fixedFiles>
  </bug>
</BugReportRepository>
"""
TREE = {"src/org/toy/Parser.java": "package org.toy;\nclass Parser {\n  void parse() {}\n}\n",
        "docs/changes.xml": "<changes/>\n",
        "win32/org/toy/widgets/Widget.java": "package org.toy.widgets;\nclass Widget {}\n",
        "gtk/org/toy/widgets/Widget.java": "package org.toy.widgets;\nclass Widget {\n}\n",
        "gtk/org/toy/widgets/BigWidget.java": "class BigWidget {}\n",  # ends with Widget.java, not /Widget.java
        "build/org/toy/widgets/Widget.java": "class Widget {}\n"}  # a folder the corpus loader skips


def _repo(path: Path, make_repo, files: dict[str, str], tag: str) -> Path:
    make_repo(path, [files])
    subprocess.run(["git", "-C", str(path), "tag", tag], check=True, capture_output=True)
    return path


def _toy(tmp_path: Path, git_repo, **options):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "ToyBugRepository.xml").write_text(XML)
    repo = _repo(tmp_path / "toy", git_repo, TREE, "v1")
    opts = Options(name="toy", dest=tmp_path / "ds", reports=tmp_path / "ToyBugRepository.xml", repository=repo,
                   subject="Toy", ref="v1", gold_strip="old/prefix/", **options)
    return run(opts)


def test_the_xml_gives_summary_then_description_and_every_fixed_file():
    bugs = parse(XML.encode(), "toy")
    assert [b.id for b in bugs] == ["1", "2", "3"]
    assert bugs[0].text == 'Parser crashes on empty input\nNullPointerException at org.toy.Parser.parse &quot;x&quot;'
    assert bugs[1].text == "Only a file the fix added" and bugs[1].description == ""
    assert bugs[0].files == ("old/prefix/src/org/toy/Parser.java", "old/prefix/src/org/toy/NewTest.java",
                             "old/prefix/docs/changes.xml")
    assert bugs[0].report_time == "2010-01-01 10:00:00" and bugs[0].commit_time == "2010-01-02 10:00:00"
    with pytest.raises(UserError, match="not a BugLocator bug repository"):
        parse(b"<BugReportRepository><bug id='1'>", "broken.xml")


def test_path_rules_strip_a_prefix_then_match_the_path_or_a_suffix_at_a_folder_boundary():
    tree = TreeIndex.of(["a/org/x/Button.java", "b/org/x/Button.java", "b/org/x/BigButton.java", "org/x/Button.java",
                         "modules/core/Main.java"])
    suffix = PathRule("suffix")
    assert suffix.files("org/x/Button.java", tree) == ["a/org/x/Button.java", "b/org/x/Button.java", "org/x/Button.java"]
    assert suffix.files("x/Button.java", tree) == ["a/org/x/Button.java", "b/org/x/Button.java", "org/x/Button.java"]
    assert suffix.files("org/y/Button.java", tree) == []
    assert PathRule("path").files("org/x/Button.java", tree) == ["org/x/Button.java"]
    assert PathRule("path").files("x/Button.java", tree) == []
    stripped = PathRule("path", "org.aspectj/modules/")
    assert stripped.key("org.aspectj/modules/modules/core/Main.java") == "modules/core/Main.java"  # the front only
    assert stripped.files("org.aspectj/modules/modules/core/Main.java", tree) == ["modules/core/Main.java"]
    assert stripped.files("modules/core/Main.java", tree) == ["modules/core/Main.java"]  # no prefix: kept as is
    with pytest.raises(UserError, match="gold_match='glob'"):
        PathRule("glob")


def test_gold_is_whole_java_files_and_what_is_not_found_is_counted(tmp_path, git_repo):
    qs = _toy(tmp_path, git_repo)
    by_bug = {q.meta["bug"]: q for q in qs.queries}
    assert sorted(by_bug) == ["1"]  # 2: its file is not in the tree; 3: Widget.java is at win32/, gtk/ (path rule)
    q = by_bug["1"]
    assert [(g.path, g.start, g.end) for g in q.gold] == [("src/org/toy/Parser.java", 1, 4)]
    assert q.qid == "Toy/1" and q.repo == "Toy" and q.kind == "bug_report"
    assert q.meta["answers"] == 3  # Bench4BL's AP denominator: every fixed file, found or not
    assert q.meta["gold_of"] == {"old/prefix/src/org/toy/Parser.java": ["src/org/toy/Parser.java"],
                                 "old/prefix/src/org/toy/NewTest.java": [], "old/prefix/docs/changes.xml": []}
    m = qs.manifest
    expected = {"bug_reports": 3, "queries": 1, "gold_files": 5, "gold_files_found": 1, "gold_files_not_in_tree": 3,
                "gold_files_not_indexed": 1, "java_files": 4, "tree_java_files": 5, "tree_files": 6}
    assert {k: m["counts"][k] for k in expected} == expected
    assert m["skipped"] == {"no_gold_in_corpus": 2}
    assert m["corpus_languages"] == ["java"] and m["gold_rule"] == {"match": "path", "strip": "old/prefix/"}
    sha = subprocess.run(["git", "-C", str(tmp_path / "toy"), "rev-parse", "v1"], capture_output=True, text=True).stdout.strip()
    assert m["corpus_sources"] == [f"git:{(tmp_path / 'toy').resolve()}@{sha}"] and m["commit"] == sha
    assert m["run_overrides"] == ["chunker=whole_file"]


def test_suffix_matching_names_every_platform_copy_but_not_a_longer_name_or_a_skipped_folder(tmp_path, git_repo):
    qs = _toy(tmp_path, git_repo, gold_match="suffix", exclude=("win32/*",))
    q = {q.meta["bug"]: q for q in qs.queries}["3"]
    assert [g.path for g in q.gold] == ["gtk/org/toy/widgets/Widget.java"]  # win32 excluded, build/ not indexed
    assert qs.manifest["corpus_exclude"] == ["win32/*"] and qs.manifest["counts"]["gold_files_several_matches"] == 0
    qs = _toy(tmp_path / "all", git_repo, gold_match="suffix")
    q = {q.meta["bug"]: q for q in qs.queries}["3"]
    assert [g.path for g in q.gold] == ["gtk/org/toy/widgets/Widget.java", "win32/org/toy/widgets/Widget.java"]
    assert qs.manifest["counts"]["gold_files_several_matches"] == 1


def test_reports_are_read_from_a_checkout_or_a_git_mirror_of_the_buglocator_data(tmp_path, git_repo):
    (tmp_path / "co" / FOLDER).mkdir(parents=True)
    (tmp_path / "co" / FOLDER / "ToyBugRepository.xml").write_text(XML)
    data, source = read(tmp_path / "co", "Toy")
    assert data == XML.encode() and source["file"] == f"{FOLDER}/ToyBugRepository.xml"
    git_repo(tmp_path / "bl", [{f"{FOLDER}/ToyBugRepository.xml": XML}])
    subprocess.run(["git", "clone", "-q", "--mirror", str(tmp_path / "bl"), str(tmp_path / "bl.git")], check=True)
    data, source = read(tmp_path / "bl.git", "Toy")
    assert data == XML.encode() and len(source["commit"]) == 40
    with pytest.raises(UserError, match="no SWTBugRepository.xml"):
        read(tmp_path / "bl.git", "SWT")


def test_options_name_the_subject_and_ref_and_a_wrong_ref_is_one_line(tmp_path, git_repo):
    with pytest.raises(UserError, match="give ref="):
        Options(name="x", dest=tmp_path, reports=tmp_path, repository=tmp_path, subject="Toy")
    with pytest.raises(UserError, match="gold_match='exact'"):
        Options(name="x", dest=tmp_path, reports=tmp_path, repository=tmp_path, subject="Toy", ref="v1",
                gold_match="exact")
    (tmp_path / "ToyBugRepository.xml").write_text(XML)
    repo = _repo(tmp_path / "toy", git_repo, TREE, "v1")
    with pytest.raises(UserError, match="commit 'v2' is not in"):
        run(Options(name="x", dest=tmp_path / "ds", reports=tmp_path / "ToyBugRepository.xml", repository=repo,
                    subject="Toy", ref="v2"))


@pytest.fixture
def slice_mirrors(tmp_path, git_repo) -> dict[str, tuple[Path, dict]]:
    """subject -> (its repository built from the slice's sources and tagged with the record's ref, options)."""
    out = {}
    for v in RECORD.variants:
        opts = dict(v.options)
        folder = SLICE / "sources" / Path(v.paths[1]).parent.name
        files = {str(f.relative_to(folder)): f.read_text(encoding="utf-8") for f in sorted(folder.rglob("*.java"))}
        out[opts["subject"]] = (_repo(tmp_path / "mirrors" / folder.name / "repo", git_repo, files, opts["ref"]), opts)
    return out


def test_the_slice_imports_with_each_subjects_rule(tmp_path, slice_mirrors):
    got = {}
    for subject, (repo, opts) in slice_mirrors.items():
        got[subject] = run(Options(name=subject, dest=tmp_path / "ds" / subject, reports=SLICE, repository=repo,
                                   **{k: v for k, v in opts.items()}))
    z, s, a = (({q.meta["bug"]: q for q in got[x].queries}, got[x].manifest) for x in ("ZXing", "SWT", "AspectJ"))
    assert sorted(z[0]) == ["432", "512", "537"] and z[1]["counts"]["gold_files_found"] == 4
    assert [g.path for g in z[0]["537"].gold] == ["core/src/com/google/zxing/oned/MultiFormatUPCEANReader.java",
                                                  "core/test/src/com/google/zxing/oned/EAN13BlackBox1TestCase.java"]
    # SWT: package-relative gold, one per platform copy; the empty description leaves the summary
    assert [g.path for g in s[0]["89533"].gold] == [
        "bundles/org.eclipse.swt/Eclipse SWT/gtk/org/eclipse/swt/widgets/ImageList.java",
        "bundles/org.eclipse.swt/Eclipse SWT/win32/org/eclipse/swt/widgets/ImageList.java"]
    assert s[0]["89533"].query == "[Themes] Colors and Fonts preferences page has funny icons for color entries"
    assert s[1]["counts"]["gold_files_several_matches"] == 1 and s[1]["gold_rule"]["match"] == "suffix"
    # AspectJ: the CVS prefix dropped; the test file 173602's fix added is counted, not in the tree
    q = a[0]["173602"]
    assert [g.path for g in q.gold] == [
        "org.aspectj.ajdt.core/src/org/aspectj/ajdt/internal/compiler/ast/InterTypeMethodDeclaration.java"]
    assert q.meta["answers"] == 2 and a[1]["counts"]["gold_files_not_in_tree"] == 1 and a[1]["skipped"] == {}
    assert {m["ref"] for _, m in (z, s, a)} == {"5fc01d761", "R3_1", "V1_6_0M2"}
