"""BLIZZARD's slice (tests/slices/cut.py says what a slice module holds): tomcat70 bug reports of each class (ST
47866 49207, PE 48174 49442, NL 43142 49721; 37509 has a non-Java gold line), with their gold, class, baseline
query, QE and top-10 lines, the corpus files their gold names and the first distractors in Lucene's document order,
and those files' mapping lines; cut from the record's data folder (a checkout of the package or its git mirror)."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Mapping

BLIZZARD_PROJECT = "tomcat70"
BLIZZARD_BUGS = ("37509", "43142", "47866", "48174", "49207", "49442", "49721")
BLIZZARD_DISTRACTORS = 24
RELEASE_FOLDERS = ("BR-Raw", "Goldset", "BR-Classes", "Baseline", "Corpus", "Lucene-Index2File-Mapping")


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    from hermes_eval.querysets.readers.blizzard_package import Package

    pkg, p, bugs = Package.open(Path(source)), BLIZZARD_PROJECT, set(BLIZZARD_BUGS)
    for folder in RELEASE_FOLDERS:  # the slice's other files (this module, PROVENANCE.md, oracle/) stay
        shutil.rmtree(out / folder, ignore_errors=True)

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


OPTION_CHECKS = {
    "project": lambda v, qs, _: qs.manifest["project"] == v and {q.repo for q in qs.queries} == {v},
    "query": lambda v, qs, _: qs.manifest["query"] == v and {q.kind for q in qs.queries} == {f"bug_report_{v}"},
}
