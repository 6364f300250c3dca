"""Bench4BL's old subjects' slice (tests/slices/cut.py says what a slice module holds): a few reports of each
subject (ZXing 432 512 537; SWT 89533, whose ImageList.java has two platform copies, 101354 112358; AspectJ 47952
77799, and 173602, whose test file X.java the tree lacks) cut from BugLocator's XMLs (the record's data folder: a
checkout or the git mirror of LeeeWee/BugLocator), and the files their gold names at the record's ref, from the
mirrors under HERMES_MIRRORS."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Mapping

BENCH4BL_BUGS = {"ZXing": ("432", "512", "537"), "SWT": ("89533", "101354", "112358"),
                 "AspectJ": ("47952", "77799", "173602")}
RECORD = "bench4bl"  # whose variants say each subject's ref, path rule and mirror


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    from hermes_eval.config.benchmarks import benchmarks, expand
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.corpus import git_tree
    from hermes_eval.querysets.readers.buglocator_reports import FOLDER, PathRule, TreeIndex, file_name, parse, read

    src = Path(source)
    record = benchmarks(CONF_DIR)[RECORD]
    for folder in (FOLDER, "sources"):  # the slice's other files (this module, PROVENANCE.md) stay
        shutil.rmtree(out / folder, ignore_errors=True)
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
        repo = Path(expand(v.paths[1], {**locations, "name": v.name, "data": str(src)}))
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


def folders(slice_dir: Path, tmp: Path, make_repo, record) -> tuple[Path, Path]:
    """(the slice, holding the BugLocator XMLs; a mirrors folder with one repository per subject built from
    ``sources/OWNER+NAME/``, its one commit tagged with the ref each variant of the record names)."""
    mirrors = tmp / "mirrors"
    refs = {Path(v.paths[1]).parent.name: dict(v.options)["ref"] for v in record.variants}
    for folder in sorted((slice_dir / "sources").iterdir()):
        repo = mirrors / folder.name / "repo"
        make_repo(repo, [{str(f.relative_to(folder)): f.read_text(encoding="utf-8")
                          for f in sorted(folder.rglob("*.java"))}])
        subprocess.run(["git", "-C", str(repo), "tag", refs[folder.name]], check=True, capture_output=True)
    return slice_dir, mirrors


def _named_by_fixed_file(path: str, fixed: list[str], match: str, strip: str) -> bool:
    """Whether one of a report's fixed files names ``path`` under the rule (``strip`` dropped, then the path
    itself or, ``match=suffix``, a tail of it at a folder boundary)."""
    keys = [f[len(strip):] if strip and f.startswith(strip) else f for f in fixed]
    return any(path == k or (match == "suffix" and path.endswith("/" + k)) for k in keys)


OPTION_CHECKS = {
    "subject": lambda v, qs, _: qs.manifest["subject"] == v and {q.repo for q in qs.queries} == {v}
        and all(q.qid.startswith(f"{v}/") for q in qs.queries),
    "ref": lambda v, qs, _: qs.manifest["ref"] == v and qs.manifest["corpus_sources"] == [
        f"git:{qs.manifest['repository']}@{qs.manifest['commit']}"],
    "gold_match": lambda v, qs, _: qs.manifest["gold_rule"]["match"] == v and all(
        _named_by_fixed_file(g.path, q.meta["fixed_files"], v, qs.manifest["gold_rule"]["strip"])
        for q in qs.queries for g in q.gold),
    "gold_strip": lambda v, qs, _: qs.manifest["gold_rule"]["strip"] == v and not any(
        g.path.startswith(v) for q in qs.queries for g in q.gold),
}
