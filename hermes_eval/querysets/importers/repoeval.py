"""RepoEval jsonl as RepoCoder publishes it, with its repository snapshot folder.

Each row: ``prompt`` and ``metadata`` {task_id, ground_truth, fpath_tuple, context_start_lineno,
line_no} (0-based line numbers; function-level rows carry ``lineno`` and ``function_name``).
The snapshot folder holds the repositories, so ``"/".join(fpath_tuple)`` is a path under it
(a folder that is one repository itself works too). Each task is judged by a protocol:
``repoeval`` (default: gold = definitions the ground truth uses, hole and rest of file
excluded), or the published ``sia-code`` / ``coderag-bench`` to reproduce their numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from hermes_eval.corpus import load_corpus
from hermes_eval.core.errors import UserError
from hermes_eval.querysets.holes import Hole
from hermes_eval.querysets.readers.jsonl import get, read_jsonl
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.importers.base import ImportOptions, choice, option, positional
from hermes_eval.querysets.readers.task_ids import unique_task_ids
from hermes_eval.querysets.generators.published_protocols import CodeRAGBenchQueries, SiaCodeQueries
from hermes_eval.querysets.python.index import ModuleIndex
from hermes_eval.querysets.generators.repoeval import RepoEvalQueries
from hermes_eval.querysets.sampling import stratified_sample
from hermes_eval.querysets.generators.completion import HoleQueries, n_lines

IMPORT_FORMAT = "repoeval"  # `datasets import` finds this module by it (importers/registry.py)
IMPORT_SUMMARY = "RepoEval jsonl (RepoCoder) with its repository snapshot"

JUDGES: dict[str, type[HoleQueries]] = {"repoeval": RepoEvalQueries, "sia-code": SiaCodeQueries,
                                        "coderag-bench": CodeRAGBenchQueries}
# retrieval/create/repoeval_repo.py (REPOs_function): CarperAI_trlx and leopard-ai_betty are left out
CODERAG_REPOS = ("amazon-science_patchcore-inspection", "deepmind_tracr", "facebookresearch_omnivore",
                 "google_lightweight_mmm", "lucidrains_imagen-pytorch", "maxhumber_redframes")
# what an imported task takes from the published protocol where it fixes more than our generator:
# CodeRAG-Bench queries with the whole prompt and judges the prompt's own lines and the hole's
# first line (its windows come from chunker=coderag_windows)
IMPORT_DEFAULTS = {"coderag-bench": {"context_lines": None, "context_chars": None, "window": None},
                   # ours on a release: the prompt's own lines are not searchable either (RepoCoder's rule)
                   "repoeval": {"exclude_context": True}}
LEVEL_HINTS = {"function_level": "function", "api_level": "api", "line_level": "line"}


DEFAULT = "default"  # an option left to the protocol's own default


@dataclass(frozen=True, kw_only=True)
class Options(ImportOptions):
    """``datasets import repoeval JSONL SNAPSHOT_DIR [protocol=...] [level=...] [context_lines=N|none] ...``."""

    tasks: Path = positional("the RepoCoder jsonl")
    snapshot: Path = positional("the repository snapshot folder")
    protocol: str = option("repoeval", "repoeval (ours), sia-code or coderag-bench (published, leaking)")
    level: str | None = option(None, "line, api or function; default: from the file name or its rows")
    context_lines: int | None | Literal["default"] = option(DEFAULT, "left-context lines in the query (none: all)")
    context_chars: int | None | Literal["default"] = option(DEFAULT, "left-context characters in the query (none: all)")
    min_context_chars: int | None = option(1, "skip tasks whose query is shorter")
    max_queries: int | None = option(None, "a seeded sample stratified by repository")
    seed: int = option(0, "the sample's seed")
    repos: str = option(DEFAULT, "repository folders to import, comma-separated, or all "
                                 "(default: all; protocol=coderag-bench: the six its script keeps)")
    drop_answer_in_prompt: bool | None = option(None, "protocol=repoeval: drop tasks whose answer is in the prompt")
    answer_line_min_chars: int | None | Literal["default"] = option(DEFAULT, "protocol=repoeval: shortest line counted as the answer")

    def __post_init__(self) -> None:
        choice(self.protocol, "protocol", tuple(sorted(JUDGES)))


def _judge(opts: Options, rows: list[tuple[int, dict]]) -> HoleQueries:
    source = Path(opts.tasks)
    cls = JUDGES[opts.protocol]
    level = opts.level or next((lv for hint, lv in LEVEL_HINTS.items() if hint in source.name), None) \
        or ("function" if any("function_name" in (r.get("metadata") or {}) for _, r in rows) else "line")
    defaults = cls()
    extra: dict = {}
    if opts.drop_answer_in_prompt is not None:  # RepoEval-style judges only: others reject the key
        extra["drop_answer_in_prompt"] = opts.drop_answer_in_prompt
    if opts.answer_line_min_chars != DEFAULT:
        extra["answer_line_min_chars"] = opts.answer_line_min_chars
    unknown = [k for k in extra if not hasattr(defaults, k)]
    if unknown:
        raise UserError(f"{source}: option {unknown[0]}= applies to protocol=repoeval only; drop it")
    fixed = IMPORT_DEFAULTS.get(opts.protocol, {})
    given = lambda key: fixed.get(key, getattr(defaults, key)) if getattr(opts, key) == DEFAULT \
        else getattr(opts, key)  # noqa: E731
    extra.update({k: v for k, v in fixed.items() if k not in ("context_lines", "context_chars")})
    return cls(level=level, context_lines=given("context_lines"), context_chars=given("context_chars"),
               min_context_chars=opts.min_context_chars, **extra)


def _selected(opts: Options) -> set[str] | None:
    """The repository folders to import (None: all)."""
    if opts.repos == DEFAULT:
        return set(CODERAG_REPOS) if opts.protocol == "coderag-bench" else None
    if opts.repos.strip() == "all":
        return None
    chosen = {r.strip() for r in opts.repos.split(",") if r.strip()}
    if not chosen:
        raise UserError(f"repos={opts.repos!r}: name repository folders, comma-separated, or all")
    return chosen


def _trim(prompt: str, judge: HoleQueries, start: int) -> tuple[str, int]:
    """The prompt cut to the judge's context size; (text, its first line)."""
    lines = prompt[:-1].split("\n") if prompt.endswith("\n") else prompt.split("\n")
    if judge.context_lines is not None:
        lines = lines[-judge.context_lines:]
    text = "\n".join(lines)
    if judge.context_chars is not None:
        text = text[-judge.context_chars:]
    return text, start - 1 - text.count("\n")


def _locate(lines: list[str], start: int, truth: str) -> int | None:
    """The 1-based hole line whose text starts the ground truth (0-based/1-based slips tolerated)."""
    parts = truth.split("\n")
    lead = next(((i, p.strip()) for i, p in enumerate(parts) if p.strip()), None)
    if lead is None:
        return start
    for d in (0, -1, 1):
        n = start + lead[0] + d
        if 1 <= n <= len(lines) and lines[n - 1].strip() == lead[1]:
            return n - lead[0]
    return None


def run(opts: Options) -> QuerySet:
    """Import a RepoCoder jsonl against its snapshot folder into ``opts.dest``."""
    source, snapshot, name = Path(opts.tasks), Path(opts.snapshot), opts.name
    if not snapshot.is_dir():
        raise UserError(f"{snapshot}: repository snapshot folder not found")
    rows = list(read_jsonl(source))
    judge = _judge(opts, rows)
    # Python files only, as RepoCoder and CodeRAG-Bench read a repository (glob **/*.py); a sweep
    # over the same folder needs corpus.languages=[python] to match this fingerprint
    corpus = load_corpus([str(snapshot)], name=name, languages=["python"])
    files = corpus.by_path()
    indexes: dict[str, ModuleIndex] = {}
    skipped = {"file_not_in_snapshot": 0, "ground_truth_mismatch": 0, "repo_not_selected": 0}
    qids, repeated = unique_task_ids([str(get(r, "metadata.task_id", (str, int), f"{source} line {n}"))
                                      for n, r in rows], str(source))
    selected = _selected(opts)
    if selected is not None:
        present = {str((r.get("metadata") or {}).get("fpath_tuple", [""])[0]) for _, r in rows}
        missing = sorted(selected - present)
        if missing:
            raise UserError(f"{source}: repos={missing[0]!r} has no task here (repositories: {', '.join(sorted(present))})")
    queries = []
    for (n, row), qid in zip(rows, qids):
        where = f"{source} line {n}"
        prompt = get(row, "prompt", str, where)
        task_id = str(get(row, "metadata.task_id", (str, int), where))
        truth = get(row, "metadata.ground_truth", str, where)
        fpath = get(row, "metadata.fpath_tuple", list, where)
        for i, part in enumerate(fpath):
            if not isinstance(part, str):
                raise UserError(f"{where}: field 'metadata.fpath_tuple[{i}]' must be a string")
        get(row, "metadata.context_start_lineno", int, where)
        line_no = get(row, "metadata.line_no", int, where, default=None)
        if line_no is None:
            if "lineno" not in (row.get("metadata") or {}):
                raise UserError(f"{where}: missing field 'metadata.line_no' (function-level rows: "
                                f"'metadata.lineno')")
            line_no = get(row, "metadata.lineno", int, where)
        if selected is not None and (not fpath or fpath[0] not in selected):
            skipped["repo_not_selected"] += 1
            continue
        path = "/".join(fpath) if "/".join(fpath) in files else "/".join(fpath[1:])
        if path not in files or not fpath:
            skipped["file_not_in_snapshot"] += 1
            continue
        text = files[path].text
        lines = text.split("\n")
        start = _locate(lines, line_no + 1, truth)
        if start is None:
            skipped["ground_truth_mismatch"] += 1
            continue
        end = max(start, start + len(truth.rstrip("\n").split("\n")) - 1)
        repo = fpath[0]
        group = path.split("/")[0] if path != "/".join(fpath[1:]) else ""
        if group not in indexes:
            indexes[group] = ModuleIndex((f.path, f.text) for f in corpus.files
                                         if not group or f.path.startswith(group + "/"))
        meta = {"task_id": task_id, **({"function_name": row["metadata"]["function_name"]}
                                       if "function_name" in row["metadata"] else {}),
                **({"scope": group + "/"} if group else {})}  # each task searches its own repository
        context = _trim(prompt, judge, start)
        if opts.protocol == "coderag-bench":  # its relevant lines start where the release says the prompt does
            context = (context[0], get(row, "metadata.context_start_lineno", int, where) + 1)
        got = judge.query_for(Hole(path, repo, judge.level, start, end), lines, n_lines(text),
                              indexes[group], qid=qid, context=context, meta=meta)
        if isinstance(got, str):
            skipped[got] = skipped.get(got, 0) + 1
        else:
            queries.append(got)
    chosen = stratified_sample(queries, opts.max_queries, opts.seed) if opts.max_queries else queries
    if not chosen:
        raise UserError(f"{source}: no task could be imported (skipped: {skipped})")
    manifest = {"generator": f"import-repoeval-{judge.protocol}", "generator_version": "1",
                "protocol": judge.protocol, "leaks_by_design": judge.leaks, "level": judge.level,
                "params": judge.params(), "seed": opts.seed,
                "source": str(source.resolve()), "corpus_sources": [str(snapshot.resolve())],
                "corpus_fingerprint": corpus.fingerprint,
                "counts": {"rows": len(rows), "candidates": len(queries), "queries": len(chosen)},
                "skipped": dict(sorted(skipped.items())),
                "repeated_task_ids": repeated,
                "repos": sorted(selected) if selected is not None else "all"}
    return QuerySet(name=name, queries=tuple(chosen), manifest=manifest)
