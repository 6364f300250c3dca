"""RepoEval's slice (tests/slices/cut.py says what a slice module holds): every task of these files (2k-context
release), the files themselves, and each repository's licence files. Two or more tasks per repository, so all
eight carry a repeated task id; the two small repositories of the qrels test get more."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Mapping

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


def cut(source: str, out: Path, locations: Mapping[str, str]) -> None:
    src = Path(source)
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


def _repos(value: str) -> set[str]:
    return set(value.split(","))


OPTION_CHECKS = {
    "protocol": lambda v, qs, _: qs.manifest["protocol"] == v,
    "repos": lambda v, qs, _: {q.repo for q in qs.queries} <= _repos(v) and set(qs.manifest["repos"]) == _repos(v),
    "context_lines": lambda v, qs, _: qs.manifest["params"]["context_lines"] == (None if v == "none" else int(v))
        and (v == "none" or all(q.query.count("\n") < int(v) for q in qs.queries)),
}


# the options a selecting option's "whole" import sets instead of dropping it (repos' default is a list)
WHOLE = {"repos": {"repos": "all"}}


def narrowed(variant: str, key: str, whole: list[tuple[str, str]], slice_dir: Path):
    """(the narrowing value, the qids it must keep, a check of the narrowed set): tasks can be skipped for other
    reasons, so the rule is applied to the whole set (qid, repository); only one repository's files are in the
    slice, so what the option removes shows in the skip count: every task of another repository, from the jsonl."""
    value = whole[0][1]
    tasks = [json.loads(line)["metadata"]["fpath_tuple"][0]
             for line in (slice_dir / REPOEVAL_TASKS).read_text().splitlines() if line.strip()]
    removed = sum(t != value for t in tasks)
    return (value, [qid for qid, repo in whole if repo == value],
            lambda qs: qs.manifest["skipped"]["repo_not_selected"] == removed > 0)
