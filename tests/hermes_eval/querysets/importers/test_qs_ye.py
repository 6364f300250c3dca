"""Ye et al.'s bug reports: the summary without its "Bug NNNNN" prefix plus the description searches the
.java files at the fix commit's parent; the fixed files present there are the gold, whole; files the fix
adds are dropped and counted, reports left without gold skipped and counted by reason. The workbook is read
from a file or straight from a (bare) mirror."""
from __future__ import annotations

import subprocess

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.importers import ye
from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

HEADER = ["id", "bug_id", "summary", "description", "report_time", "report_timestamp", "status", "commit",
          "commit_timestamp", "files"]
PARSER = "package p;\n\nclass Parser {\n    int parse(String s) {\n        return s.length();\n    }\n}\n"
LOADER = "package p;\n\nclass Loader {\n    void load() {\n    }\n}\n"
CACHED = "package p.build;\n\nclass Cached {\n}\n"


@pytest.fixture
def project(tmp_path, git_repo):
    """A bare mirror of a project whose history has one fix per bug, and the shas of its commits."""
    work = tmp_path / "work"
    shas = git_repo(work, [
        {"src/p/Parser.java": PARSER, "src/p/Loader.java": LOADER, "build/p/Cached.java": CACHED,
         "README.md": "Parser and Loader\n", "conf/server.xml": "<server/>\n"},  # 0: root
        {"src/p/Parser.java": PARSER.replace("s.length()", "s.trim().length()"),
         "src/p/ParserTest.java": "package p;\nclass ParserTest {}\n"},  # 1: fixes bug 101, adds a test
        {"src/p/Loader.java": LOADER.replace("    }\n}", "        init();\n    }\n}")},  # 2: fixes bug 102
        {"src/p/Cache.java": "package p;\nclass Cache {}\n"},  # 3: fixes bug 103 by adding its only file
        {"build/p/Cached.java": CACHED + "// x\n"},  # 4: fixes bug 104, in a folder the corpus skips
    ])
    mirror = tmp_path / "mirrors" / "acme+server" / "repo"
    subprocess.run(["git", "clone", "-q", "--mirror", str(work), str(mirror)], check=True)
    return mirror, shas


def _rows(shas):
    return [HEADER + [""],  # the release's header names 10 columns; the 11th (result) is unnamed
            ["1", "101", "Bug 101 Parser counts blanks", "parse(\" a \") returns 3", "2014-01-15 07:30:17",
             "1389790000", "resolved fixed", shas[1][:7], "1390080000", "src/p/Parser.java src/p/ParserTest.java",
             "3:src/p/Parser.java"],
            ["2", "102", "Bug 102 Loader never initializes", "", "2014-01-16 08:00:00", "1389880000",
             "resolved fixed", shas[2][:7], "1390090000", "src/p/Loader.java", ""],
            ["3", "103", "Bug 103 Add a cache", "", "2014-01-17 09:00:00", "1389970000", "resolved fixed",
             shas[3][:7], "1390100000", "src/p/Cache.java", ""],
            ["4", "104", "Bug 104 Cached is stale", "", "2014-01-18 09:00:00", "1389980000", "resolved fixed",
             shas[4][:7], "1390110000", "build/p/Cached.java", ""],
            ["5", "105", "Bug 105 Unknown fix", "", "2014-01-19 09:00:00", "1389990000", "resolved fixed",
             "abcdef1", "1390120000", "src/p/Parser.java", ""],
            ["6", "106", "Bug 106 The first commit", "", "2014-01-20 09:00:00", "1389990000", "resolved fixed",
             shas[0][:7], "1390120000", "src/p/Parser.java", ""],
            ["7", "101", "Bug 101 Parser counts blanks", "again", "2014-01-21 09:00:00", "1389990000",
             "resolved fixed", shas[1][:7], "1390120000", "src/p/Parser.java", ""]]


def _import(tmp_path, workbook, **kw):
    opts = ye.Options(name="ye-t", dest=tmp_path / "ds", cache_dir=tmp_path / "cache", workbook=str(workbook),
                      repos_dir=tmp_path / "mirrors", repo="acme/server", **kw)
    return ye.run(opts)


@pytest.mark.parametrize("summary,description,want", [
    ("Bug 56012 wrong import statement", "", "wrong import statement"),
    ("Bug 56012 wrong import", "  details\nmore  ", "wrong import\ndetails\nmore"),
    ("Bug in the parser", "", "Bug in the parser"),  # no number: no prefix (LeeeWee's ^Bug \d+ )
    ("Bug 1 Bug 2 twice", "", "Bug 2 twice"),  # only the leading one
])
def test_query_is_the_summary_without_its_bug_prefix_then_the_description(summary, description, want):
    assert ye.query_text(summary, description) == want


def test_result_column_is_read_as_ranks_and_a_malformed_one_is_one_line():
    assert ye.parse_ranks("1:java/A.java 21:java/B.java", "w") == {"java/A.java": 1, "java/B.java": 21}
    assert ye.parse_ranks("", "w") == {}
    with pytest.raises(UserError, match=r"^w: result 'java/A.java' is not RANK:PATH$"):
        ye.parse_ranks("java/A.java", "w")


def test_gold_is_each_fixed_file_whole_at_the_parent_and_skips_are_counted(tmp_path, project):
    mirror, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    qs = _import(tmp_path, tmp_path / "Server.xlsx")
    m = qs.manifest
    assert [q.qid for q in qs.queries] == ["101", "102"]
    q101, q102 = qs.queries
    # parent snapshots: 101 is fixed by commit 1 (parent 0), 102 by commit 2 (parent 1)
    assert q101.meta["base_commit"] == shas[0] and q101.meta["fix_commit"] == shas[1]
    assert q102.meta["base_commit"] == shas[1] and q102.meta["scope"] == f"server@{shas[1][:8]}/"
    assert m["corpus_sources"] == sorted(f"git:{mirror.resolve()}@{shas[i]}" for i in (0, 1)) and m["scoped"]
    # whole files at the parent: Parser.java before the fix (7 lines); the test the fix adds is dropped
    assert [(g.path, g.start, g.end) for g in q101.gold] == [(f"server@{shas[0][:8]}/src/p/Parser.java", 1, 7)]
    assert q101.meta["gold_files_added_by_fix"] == ["src/p/ParserTest.java"]
    assert [(g.path, g.start, g.end) for g in q102.gold] == [(f"server@{shas[1][:8]}/src/p/Loader.java", 1, 6)]
    assert q101.query == "Parser counts blanks\nparse(\" a \") returns 3" and q102.query == "Loader never initializes"
    assert q101.meta["ye_ranks"] == {"src/p/Parser.java": 3} and q102.meta["ye_ranks"] == {}
    assert q101.meta["report_time"] == "2014-01-15 07:30:17" and q101.meta["release_commit"] == shas[1][:7]
    assert m["skipped"] == {"commit_missing": 1, "no_parent": 1, "duplicate_bug": 1, "only_added_files": 1,
                            "gold_not_indexed": 1, "over_limit": 0}
    assert m["gold_files"] == {"in_release": 4, "added_by_fix": 1, "not_indexed": 1, "gold": 2}
    assert m["counts"] == {"reports": 7, "queries": 2, "snapshots": 2, "snapshots_of_skipped_reports": 1,
                           "with_ye_ranks": 1, "already_localized": 2}
    # each report names its gold file's class (Kochhar et al.'s already-localized stratum)
    assert q101.meta["localized_by"] == {"files": [], "symbols": ["Parser"]} and q102.meta["localized"] == "already_localized"
    assert m["strata"] == {"localized": "localized"}
    # .java files only, as the manifest tells the runs; the set is tied to that corpus
    assert m["corpus_languages"] == ["java"] and m["protocol"] == "ye"
    corpus = load_corpus(m["corpus_sources"], cache_dir=str(tmp_path / "cache"), languages=m["corpus_languages"])
    assert corpus.fingerprint == m["corpus_fingerprint"]
    # commit 3, the parent of 104's fix, is gone: its report was skipped once its gold was not indexed, and
    # no query searches it (a set whose sources are its queries' snapshots runs in batches)
    assert {f.path.split("/", 1)[0] for f in corpus.files} == {f"server@{shas[i][:8]}" for i in (0, 1)}
    assert "src/p/Cache.java" not in {f.path.split("/", 1)[1] for f in corpus.files}


def test_the_snapshots_load_once_though_a_skipped_reports_parent_leaves(tmp_path, project, monkeypatch):
    """Report 104's parent leaves the set (its gold is not indexed) without a second load of the corpus."""
    import hermes_eval.corpus.scan as scan

    loads, load = [], scan.scan_sources

    def counted(resolved, *args, **kwargs):  # every corpus load scans its sources here
        loads.append(list(resolved))
        return load(resolved, *args, **kwargs)

    monkeypatch.setattr(scan, "scan_sources", counted)
    _, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    m = _import(tmp_path, tmp_path / "Server.xlsx").manifest
    assert len(loads) == 1 and len(loads[0]) == 3  # the parents of 101, 102 and 104, once
    assert m["counts"]["snapshots_of_skipped_reports"] == 1 and len(m["corpus_sources"]) == 2


def test_limit_keeps_the_first_reports_with_gold(tmp_path, project):
    _, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    qs = _import(tmp_path, tmp_path / "Server.xlsx", limit=1)
    assert [q.qid for q in qs.queries] == ["101"] and qs.manifest["skipped"]["over_limit"] == 2
    assert qs.manifest["corpus_sources"] == [f"git:{project[0].resolve()}@{shas[0]}"] and not qs.manifest["scoped"]
    assert qs.queries[0].gold[0].path == "src/p/Parser.java"  # one snapshot: no prefix


def test_the_workbook_is_read_from_a_mirror_at_a_commit(tmp_path, project, git_repo):
    _, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    [data_sha] = git_repo(tmp_path / "release", [{"data/Server.xlsx": ""}])
    (tmp_path / "release" / "data" / "Server.xlsx").write_bytes((tmp_path / "Server.xlsx").read_bytes())
    subprocess.run(["git", "-C", str(tmp_path / "release"), "-c", "user.name=t", "-c", "user.email=t@t", "commit",
                    "-qam", "data"], check=True)
    head = subprocess.run(["git", "-C", str(tmp_path / "release"), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    bare = tmp_path / "release.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(tmp_path / "release"), str(bare)], check=True)
    assert read_rows(f"git:{bare}@{head}:data/Server.xlsx") == read_rows(tmp_path / "Server.xlsx")
    qs = _import(tmp_path, f"git:{bare}@{head}:data/Server.xlsx")
    assert [q.qid for q in qs.queries] == ["101", "102"]
    with pytest.raises(UserError, match=r"data/Server\.xlsx/x is not in .* at " + data_sha):
        read_rows(f"git:{bare}@{data_sha}:data/Server.xlsx/x")
    with pytest.raises(UserError, match="write git:REPO@REV:PATH"):
        read_rows(f"git:{bare}@{head}")


def test_missing_repository_or_columns_are_one_line_errors(tmp_path, project):
    _, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    with pytest.raises(UserError, match=r"no clone or mirror of acme/other under") as err:
        ye.run(ye.Options(name="x", dest=tmp_path / "ds", workbook=str(tmp_path / "Server.xlsx"),
                          repos_dir=tmp_path / "mirrors", repo="acme/other"))
    assert "\n" not in str(err.value)
    write_rows(tmp_path / "Bad.xlsx", [["id", "bug_id", "summary"], ["1", "2", "x"]])
    with pytest.raises(UserError, match=r"no column 'description' in the header"):
        _import(tmp_path, tmp_path / "Bad.xlsx")
    with pytest.raises(UserError, match=r"pass repo=OWNER/NAME"):
        ye.Options(name="x", dest=tmp_path, workbook="w.xlsx", repos_dir=tmp_path)


def test_the_cli_imports_it_with_the_repos_flag(tmp_path, project):
    from hermes_eval.cli.main import main
    from hermes_eval.querysets.store import load_queryset

    _, shas = project
    write_rows(tmp_path / "Server.xlsx", _rows(shas))
    assert main(["datasets", "import", "ye", str(tmp_path / "Server.xlsx"), "--repos", str(tmp_path / "mirrors"),
                 "repo=acme/server", "name=ye-cli", f"paths.datasets={tmp_path / 'ds'}",
                 f"paths.cache={tmp_path / 'cache'}"]) == 0
    qs = load_queryset(tmp_path / "ds" / "ye-cli")
    assert len(qs) == 2 and qs.queries[0].kind == "bug-report"
