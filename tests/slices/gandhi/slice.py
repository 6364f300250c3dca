"""Gandhi et al.'s slice (tests/slices/cut.py says what a slice module holds; this one is not cut by script: see
PROVENANCE.md). The records test rebuilds a repository per gold file whose commits are the rows' commits."""
from __future__ import annotations

import ast
import csv
import io
from pathlib import Path


def folders(slice_dir: Path, tmp: Path, make_repo, record) -> tuple[Path, Path]:
    """(a copy of the slice whose commit ids are those of repositories rebuilt under the mirrors folder:
    per row, a parent holding the row's files and the commit that edits them)."""
    data, mirrors = tmp / "data", tmp / "mirrors"
    for path in sorted(slice_dir.glob("gold/*/*.csv")):
        rows = list(csv.DictReader(io.StringIO(path.read_text())))
        commits = []
        for k, row in enumerate(rows):
            files = ast.literal_eval(row["actual_files_modified"])  # a list literal, as the release writes it
            commits += [{f: f"// {f} before {k}\n" for f in files}, {f: f"// {f} after {k}\n" for f in files}]
        owner, _, name = path.parent.name.partition("_")
        shas = make_repo(mirrors / f"{owner}+{name}", commits)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({**row, "commit_id": shas[2 * k + 1]} for k, row in enumerate(rows))
        target = data / path.relative_to(slice_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(out.getvalue())
    return data, mirrors


OPTION_CHECKS = {
    "repos_dir": lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(mirrors.resolve()),
    "repo": lambda v, qs, _: qs.manifest["repo"] == v and {q.repo for q in qs.queries} == {v},
    "query": lambda v, qs, _: qs.manifest["query"] == v and {q.kind for q in qs.queries} == {f"commit_{v}"},
}
