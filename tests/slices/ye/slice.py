"""Ye et al.'s slice (tests/slices/cut.py says what a slice module holds): rows of the release's workbooks (the
record's data folder: LeeeWee/BugLocator's mirror at its commit), header and these bugs in the workbook's order,
unchanged; and each kept bug's gold files as they are at the fix commit's parent (snapshots/PROJECT/BUG/PATH), from
the projects' mirrors under HERMES_MIRRORS. Per project: one report with a description, one without, one whose fix
adds one of its two gold files, one whose fix adds its only gold file (skipped)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Mapping

YE_BUGS = {"Tomcat": ("apache+tomcat", ("55630", "54671", "55181", "49014")),
           "AspectJ": ("eclipse-aspectj+aspectj", ("394234", "289818", "327134", "42515"))}
# the mirror folder of each project (the slice's workbooks are named by project)
YE_MIRRORS = {project: mirror for project, (mirror, _) in YE_BUGS.items()}


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

    def git(repo: Path, *args: str) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout

    mirrors = Path(locations["HERMES_MIRRORS"])
    shutil.rmtree(out / "snapshots", ignore_errors=True)  # the slice's other files (this module, PROVENANCE.md) stay
    for project, (mirror, bugs) in YE_BUGS.items():
        rows = read_rows(f"{source}/{project}.xlsx")
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


def folders(slice_dir: Path, tmp: Path, make_repo, record) -> tuple[Path, Path]:
    """(a data folder with the slice's workbooks, their commits those of repositories built under the mirrors
    folder returned): per bug, a commit holding its gold files as they are before the fix (the slice's
    snapshots/PROJECT/BUG/) and a non-Java note, then the fix, which changes them and adds the others."""
    from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

    data, mirrors = tmp / "data", tmp / "mirrors"
    data.mkdir()
    for book in sorted(slice_dir.glob("*.xlsx")):
        rows = read_rows(book)
        commits = []
        for row in rows[1:]:
            folder = slice_dir / "snapshots" / book.stem / row[1]
            before = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
            commits.append({**before, "NOTES.txt": f"before the fix of bug {row[1]}\n"})
            commits.append({p: before.get(p, "") + "// fixed\n" for p in row[9].split()})
        shas = make_repo(mirrors / YE_MIRRORS[book.stem] / "repo", commits)
        fixed = [[*r[:7], shas[2 * i + 1][:7], *r[8:]] for i, r in enumerate(rows[1:])]  # the fix's short SHA
        write_rows(data / book.name, [rows[0], *fixed])
    return data, mirrors


OPTION_CHECKS = {
    "repos_dir": lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(mirrors.resolve()),
    "repo": lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v}
        and all(any(s.endswith(f"@{q.meta['base_commit']}") for s in qs.manifest["corpus_sources"])
                for q in qs.queries),
    "limit": lambda v, qs, _: len(qs) <= int(v),
}

# read by hand off the slice (no import run): PROVENANCE.md lists Tomcat.xlsx's rows in the workbook's order, 55630,
# 55181, 54671, 49014 (limit keeps the first rows; the first two both have a gold file before their fix)
NARROWED = {("ye-tomcat-recent200", "limit"): ("2", ["55630", "55181"]),
            ("ye-tomcat-recent50", "limit"): ("2", ["55630", "55181"])}
