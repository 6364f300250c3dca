"""SWE-bench instances' slice (tests/slices/cut.py says what a slice module holds): whole rows (issue text and
golden patch) of a few Lite and Verified instances, in the data folder's layout. Lite: two requests instances and a
flask one, all in LocAgent's 274 and editing non-test .py files; Verified: one each. The records test rebuilds each
instance's repository from the old side of its golden patch (no mirror, no network)."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Mapping

from hermes_eval.querysets.readers.swebench_protocols import protocol
from hermes_eval.querysets.readers.swebench_subsets import SUBSETS

SWEBENCH_INSTANCES = {"lite.json": ("psf__requests-863", "psf__requests-2317", "pallets__flask-4045"),
                      "verified.json": ("psf__requests-1142", "pallets__flask-5014")}
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+")


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, ids in SWEBENCH_INSTANCES.items():
        rows = {r["instance_id"]: r for r in json.loads((Path(source) / name).read_text())}
        (out / name).write_text(json.dumps([rows[i] for i in ids], indent=1, ensure_ascii=False) + "\n")


def _old_side(patch: str) -> dict[str, str]:
    """Each file a patch changes, rebuilt from its hunks' old side (context and removed lines at their line
    numbers, a placeholder line elsewhere), so that the patch applies to it as it did at base_commit."""
    files: dict[str, dict[int, str]] = {}
    path, line = None, 0
    for text in patch.splitlines():
        if text.startswith("--- a/"):
            path = text[6:]
            files[path] = {}
        elif (m := HUNK.match(text)) and path:
            line = int(m.group(1))
        elif path and text[:1] in (" ", "-") and not text.startswith("---"):
            files[path][line] = text[1:]
            line += 1
    return {p: "".join(f"{lines.get(i, f'# line {i}: not in the patch')}\n" for i in range(1, max(lines) + 3))
            for p, lines in files.items()}


def folders(slice_dir: Path, tmp: Path, make_repo, record) -> tuple[Path, Path]:
    """(a data folder with the slice's instance files, their base commits those of repositories rebuilt
    under the mirrors folder returned)."""
    data, mirrors = tmp / "data", tmp / "mirrors"
    data.mkdir()
    files = {f.name: json.loads(f.read_text()) for f in sorted(slice_dir.glob("*.json"))}
    by_repo: dict[str, list[dict]] = {}
    for rows in files.values():
        for row in rows:
            by_repo.setdefault(row["repo"], []).append(row)
    sha: dict[str, str] = {}
    for repo, rows in by_repo.items():
        commits = make_repo(mirrors / repo.replace("/", "+"), [_old_side(r["golden_patch"]) for r in rows])
        sha.update({r["instance_id"]: c for r, c in zip(rows, commits)})
    for name, rows in files.items():
        (data / name).write_text(json.dumps([{**r, "base_commit": sha[r["instance_id"]]} for r in rows]))
    return data, mirrors


def _repos(value: str) -> set[str]:
    return set(value.split(","))


OPTION_CHECKS = {
    "repos_dir": lambda v, qs, mirrors: qs.manifest["repos_dir"] == str(Path(v).resolve()) == str(mirrors.resolve()),
    "repos": lambda v, qs, _: {q.repo for q in qs.queries} <= _repos(v),
    "limit": lambda v, qs, _: max(Counter(q.repo for q in qs.queries).values()) <= int(v),
    "subset": lambda v, qs, _: qs.manifest["subset"]["name"] == v and all(SUBSETS[v].keeps(q.qid) for q in qs.queries),
    "protocol": lambda v, qs, _: qs.manifest["protocol"] == v
        and set(protocol(v).exclude) <= set(qs.manifest["corpus_exclude"])
        and qs.manifest["corpus_languages"] == list(protocol(v).languages)
        and all(q.meta["scope"] == "" for q in qs.queries) == protocol(v).pooled,
}

# read by hand off lite.json, which holds psf__requests-863, psf__requests-2317, pallets__flask-4045 in this order
# (limit is per repository: each one's first instances)
NARROWED = {
    ("swe-lite", "limit"): ("1", ["psf__requests-863", "pallets__flask-4045"]),
    ("swe-lite", "repos"): ("psf/requests", ["psf__requests-863", "psf__requests-2317"]),
}
