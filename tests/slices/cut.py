"""Re-cut the benchmark slices the importer tests read, from the project's benchmark data folder
(the Makefile's BENCH_DATA):

    .venv/bin/python tests/slices/cut.py BENCH_DATA [bench4bl|blizzard|cosqa|repoeval|swebench|swebench-instances ...]
    .venv/bin/python tests/slices/cut.py HERMES_MIRRORS ye

Each slice holds real rows and files of the release, unchanged, only fewer of them (which ones:
the constants below). Ye et al.'s release is read from the mirrors folder instead (HERMES_MIRRORS:
the LeeeWee/BugLocator mirror, and the projects' mirrors for the files before each fix). Run it from
anywhere; it writes next to itself and replaces only the slices it is asked for (all of them by default).
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# --- CoSQA (cosqa/): rows of the test and dev files, by position, and the functions they name ---
# test 1 (twin of dev 86) and test 3 / test 27 / dev 0 (one text under three pair ids) give the
# pair-id twins the hygiene test counts; dev 7 is the row the unique-id test reads.
COSQA_TEST_ROWS = (0, 1, 2, 3, 4, 5, 6, 7, 27)
COSQA_DEV_ROWS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 86)
COSQA_DISTRACTORS = 10  # the first functions of code_idx_map.txt that no kept row names

# --- RepoEval (repoeval/): every task of these files (2k-context release), the files themselves,
# and each repository's licence files. Two or more tasks per repository, so all eight carry a
# repeated task id; the two small repositories of the qrels test get more.
REPOEVAL_TASKS = "function_level_completion_2k_context_codex.test.jsonl"
REPOEVAL_TASK_FILES = (
    "CarperAI_trlx/trlx/data/method_configs.py",
    "amazon-science_patchcore-inspection/src/patchcore/sampler.py",
    "deepmind_tracr/tracr/utils/errors.py",
    "facebookresearch_omnivore/omnivision/optim/omni_optimizer.py",
    "google_lightweight_mmm/lightweight_mmm/core/transformations/saturation.py",
    "leopard-ai_betty/betty/hypergradient/__init__.py",
    "leopard-ai_betty/betty/patch/optimizer.py",
    "lucidrains_imagen-pytorch/imagen_pytorch/configs.py",
    "maxhumber_redframes/redframes/checks.py",  # also the definitions the verbs' holes use (our gold)
    "maxhumber_redframes/redframes/verbs/append.py",
    "maxhumber_redframes/redframes/verbs/drop.py",
    "maxhumber_redframes/redframes/verbs/filter.py",
    "maxhumber_redframes/redframes/verbs/mutate.py",
)
LICENCE_FILES = ("LICENSE", "NOTICE")


def cosqa(src: Path, out: Path) -> None:
    test = json.loads((src / "cosqa-retrieval-test-500.json").read_text())
    dev = json.loads((src / "cosqa-retrieval-dev-500.json").read_text())
    index = json.loads((src / "code_idx_map.txt").read_text())
    rows = {"test": [test[i] for i in COSQA_TEST_ROWS], "dev": [dev[i] for i in COSQA_DEV_ROWS]}
    named = {r["code"] for split in rows.values() for r in split}
    extra = [code for code in index if code not in named][:COSQA_DISTRACTORS]
    keep = named | set(extra)
    out.mkdir(parents=True, exist_ok=True)
    for split, kept in rows.items():
        (out / f"cosqa-retrieval-{split}-500.json").write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n")
    (out / "code_idx_map.txt").write_text(
        json.dumps({code: i for code, i in index.items() if code in keep}, indent=1, ensure_ascii=False) + "\n")


def repoeval(src: Path, out: Path) -> None:
    lines = (src / REPOEVAL_TASKS).read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    chosen = set(REPOEVAL_TASK_FILES)
    out.mkdir(parents=True, exist_ok=True)
    (out / REPOEVAL_TASKS).write_text("".join(line + "\n" for line, row in zip(lines, rows)
                                              if "/".join(row["metadata"]["fpath_tuple"]) in chosen))
    # the whole release's task list, ids and paths only: the published counts are checked on it
    (out / "release_tasks.jsonl").write_text("".join(
        json.dumps({k: r["metadata"][k] for k in ("task_id", "fpath_tuple")}) + "\n" for r in rows))
    repos = src / "repositories" / "function_level"
    dest = out / "repositories" / "function_level"
    shutil.rmtree(dest, ignore_errors=True)
    for rel in sorted(chosen | {f"{r.split('/')[0]}/{name}" for r in chosen for name in LICENCE_FILES}):
        if (repos / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(repos / rel, dest / rel)


def swebench(src: Path, out: Path) -> None:
    """All 300 Lite instances, the identifying fields only (no issue text, no patch)."""
    rows = json.loads((src / "lite.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    (out / "lite.json").write_text(json.dumps([{k: r[k] for k in ("instance_id", "repo", "base_commit")}
                                               for r in rows], indent=0) + "\n")


# --- SWE-bench instances (swebench-instances/): whole rows (issue text and golden patch) of a few Lite and
# Verified instances, in the data folder's layout, for the benchmark records' importer test
# (tests/hermes_eval/querysets/test_benchmark_records.py). Lite: two requests instances and a flask one, all
# in LocAgent's 274 and editing non-test .py files; Verified: one each.
SWEBENCH_INSTANCES = {"lite.json": ("psf__requests-863", "psf__requests-2317", "pallets__flask-4045"),
                      "verified.json": ("psf__requests-1142", "pallets__flask-5014")}


def swebench_instances(src: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, ids in SWEBENCH_INSTANCES.items():
        rows = {r["instance_id"]: r for r in json.loads((src / name).read_text())}
        (out / name).write_text(json.dumps([rows[i] for i in ids], indent=1, ensure_ascii=False) + "\n")


# --- BLIZZARD (blizzard/): tomcat70 bug reports of each class (ST 47866 49207, PE 48174 49442, NL 43142
# 49721; 37509 has a non-Java gold line), with their gold, class, baseline query, QE and top-10 lines, the
# corpus files their gold names and the first distractors in Lucene's document order, and those files'
# mapping lines. BENCH_DATA/blizzard: a checkout of the package or its git mirror.
BLIZZARD_PROJECT = "tomcat70"
BLIZZARD_BUGS = ("37509", "43142", "47866", "48174", "49207", "49442", "49721")
BLIZZARD_DISTRACTORS = 24


def blizzard(src: Path, out: Path) -> None:
    sys.path.insert(0, str(HERE.parents[1]))
    from hermes_eval.querysets.readers.blizzard_package import Package

    pkg, p, bugs = Package.open(src), BLIZZARD_PROJECT, set(BLIZZARD_BUGS)
    shutil.rmtree(out, ignore_errors=True)

    def put(rel: str, data: bytes) -> None:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)

    def rows(rel: str) -> bytes:  # the lines of a bug<TAB>value table that name a chosen bug, unchanged
        lines = (pkg.read(rel) or b"").splitlines(keepends=True)
        return b"".join(line for line in lines if line.split(b"\t")[0].strip().decode() in bugs)

    for b in BLIZZARD_BUGS:
        for folder in ("BR-Raw", "Goldset"):
            put(f"{folder}/{p}/{b}.txt", pkg.read(f"{folder}/{p}/{b}.txt"))
    for c in ("ST", "PE", "NL", "ALL"):
        rel = f"BR-Classes/{p}/BR-{c}.txt"
        put(rel, b"".join(x for x in (pkg.read(rel) or b"").splitlines(keepends=True) if x.strip().decode() in bugs))
    for rel in (f"Baseline/Query/{p}.txt", f"Baseline/QE/{p}.txt", f"Baseline/Result/{p}.txt"):
        put(rel, rows(rel))
    mapping_rel = f"Lucene-Index2File-Mapping/{p}.ckeys"
    lines = (pkg.read(mapping_rel) or b"").splitlines(keepends=True)
    by_number = {x.split(b":")[0].decode() + ".java": x for x in lines}
    gold = [g for b in BLIZZARD_BUGS for g in (pkg.gold(p, b) or [])]
    named = {n for n, x in by_number.items() if any(x.decode().strip().replace("\\", "/").endswith(g) for g in gold)}
    extra = [n for n in pkg.names(f"Corpus/{p}") if n not in named][:BLIZZARD_DISTRACTORS]
    keep = named | set(extra)
    for n in sorted(keep):
        put(f"Corpus/{p}/{n}", pkg.read(f"Corpus/{p}/{n}"))
    put(mapping_rel, b"".join(x for x in lines if x.split(b":")[0].decode() + ".java" in keep))
    pkg.close()


# --- Bench4BL old subjects (bench4bl/): a few reports of each subject (ZXing 432 512 537; SWT 89533, whose
# ImageList.java has two platform copies, 101354 112358; AspectJ 47952 77799, and 173602, whose test file
# X.java the tree lacks) cut from BugLocator's XMLs, and the files their gold names at the record's ref, from
# the mirrors under HERMES_MIRRORS. BENCH_DATA/bench4bl: a checkout or the git mirror of LeeeWee/BugLocator.
BENCH4BL_BUGS = {"ZXing": ("432", "512", "537"), "SWT": ("89533", "101354", "112358"),
                 "AspectJ": ("47952", "77799", "173602")}


def bench4bl(src: Path, out: Path) -> None:
    import os
    import re
    import subprocess

    sys.path.insert(0, str(HERE.parents[1]))
    from hermes_eval.config.benchmarks import LOCATIONS, benchmarks, expand
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.corpus import git_tree
    from hermes_eval.querysets.readers.buglocator_reports import FOLDER, PathRule, TreeIndex, file_name, parse, read

    record = benchmarks(CONF_DIR)["bench4bl"]
    mirrors = os.environ.get("HERMES_MIRRORS", LOCATIONS["HERMES_MIRRORS"].default)
    shutil.rmtree(out, ignore_errors=True)
    for v in record.variants:
        opts = dict(v.options)
        subject, wanted = opts["subject"], set(BENCH4BL_BUGS[opts["subject"]])
        data, _ = read(src, subject)
        text = data.decode("utf-8")
        kept = [m.group(0) for m in re.finditer(r"[ \t]*<bug id=\"(\d+)\".*?</bug>\r?\n", text, flags=re.S)
                if m.group(1) in wanted]  # each chosen <bug> element, its lines unchanged
        assert len(kept) == len(wanted), f"{subject}: found {len(kept)} of the bugs {sorted(wanted)}"
        head = text[:text.index("<bug ")].rstrip(" \t")
        tail = text[text.index("\n", text.rindex("</bug>")) + 1:]
        xml = out / FOLDER / file_name(subject)
        xml.parent.mkdir(parents=True, exist_ok=True)
        xml.write_text(head + "".join(kept) + tail, encoding="utf-8")
        repo = Path(expand(v.paths[1], {"name": v.name, "data": str(src), "HERMES_MIRRORS": mirrors,
                                        "BENCH_DATA": ""}))
        sha = subprocess.run(["git", "-C", str(repo), "rev-parse", f"{opts['ref']}^{{commit}}"], check=True,
                             capture_output=True, text=True).stdout.strip()
        entries = {e.path: e for e in git_tree.tree(repo, sha)}
        tree = TreeIndex.of([p for p in entries if p.endswith(".java")])
        rule = PathRule(opts.get("gold_match", "path"), opts.get("gold_strip", ""))
        blobs = git_tree.Blobs(repo)
        for bug in parse((head + "".join(kept) + tail).encode("utf-8"), str(xml)):
            for path in sorted({p for g in bug.files for p in rule.files(g, tree)}):
                target = out / "sources" / repo.parent.name / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(blobs.raw(entries[path].sha))
        blobs.close()


# --- Ye et al. (ye/): rows of the release's workbooks (LeeeWee/BugLocator at YE_COMMIT), header and
# these bugs in the workbook's order, unchanged; and each kept bug's gold files as they are at the fix
# commit's parent (snapshots/PROJECT/BUG/PATH). Per project: one report with a description, one without,
# one whose fix adds one of its two gold files, one whose fix adds its only gold file (skipped).
YE_COMMIT = "9744e30414e6f3979a954d4f0824b37eef126c60"
YE_DATA = "data/LearnToRankBugFiles"
YE_BUGS = {"Tomcat": ("apache+tomcat", ("55630", "54671", "55181", "49014")),
           "AspectJ": ("eclipse-aspectj+aspectj", ("394234", "289818", "327134", "42515"))}


def ye(mirrors: Path, out: Path) -> None:
    import subprocess

    from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

    def git(repo: Path, *args: str) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout

    if out.exists():
        shutil.rmtree(out)
    for project, (mirror, bugs) in YE_BUGS.items():
        rows = read_rows(f"git:{mirrors}/LeeeWee+BugLocator/repo@{YE_COMMIT}:{YE_DATA}/{project}.xlsx")
        kept = [r for r in rows[1:] if r[1] in bugs]
        assert sorted(r[1] for r in kept) == sorted(bugs), project
        out.mkdir(parents=True, exist_ok=True)
        write_rows(out / f"{project}.xlsx", [rows[0], *kept])
        repo = mirrors / mirror / "repo"
        for r in kept:
            parent = git(repo, "rev-parse", f"{r[7]}^1").strip()
            for path in r[9].split():
                found = subprocess.run(["git", "-C", str(repo), "cat-file", "blob", f"{parent}:{path}"],
                                       capture_output=True)
                if found.returncode == 0:  # absent: the fix adds it
                    dest = out / "snapshots" / project / r[1] / path
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(found.stdout)
            print(f"{project} {r[1]}: fix {r[7]}, parent {parent}")


CUTS = {"bench4bl": (bench4bl, "bench4bl"), "blizzard": (blizzard, "blizzard"), "cosqa": (cosqa, "cosqa"), "repoeval": (repoeval, "repoeval"), "swebench": (swebench, "swe-bench"),
        "swebench-instances": (swebench_instances, "swe-bench"), "ye": (ye, ".")}


def main(argv: list[str]) -> None:
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    data, names = Path(argv[0]), argv[1:] or list(CUTS)
    for name in names:
        cut, folder = CUTS[name]
        cut(data / folder, HERE / name)
        print(f"{name}: {HERE / name}")


if __name__ == "__main__":
    main(sys.argv[1:])
