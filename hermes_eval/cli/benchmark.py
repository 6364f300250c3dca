"""`hermes-eval benchmark NAME...`: a benchmark record's whole run, derived from conf/benchmarks/NAME.yaml.

Three steps, each the command a person would type (printed before it runs; ``--dry-run`` prints only):

- ``import``: ``hermes-eval datasets import`` of every variant (the record's importer, paths and
  options; ``{BENCH_DATA}`` and ``{HERMES_MIRRORS}`` are ``--data`` and ``--mirrors``);
- ``sweep``: ``hermes-eval sweep experiment=E paths.runs=runs/BOARD`` for every experiment its sweeps
  name (of ``--group``: main by default), limited to the chosen variants' overlays;
- ``board``: ``hermes-eval leaderboard --runs runs/BOARD --out BOARD --anchors BOARD --merge`` (the runs go
  into the board's committed results: sets run elsewhere keep theirs).

``--reproduce`` runs, instead of those steps, the reproductions the records name (``reproductions:``,
hermes_eval/reproduce/): each writes its tables into its board's README between markers (a re-run replaces
them), and every anchor a reproduction reads from its cited file is checked (exit 1 when one differs).

The runs read the data and mirror folders from ``HERMES_BENCH_DATA`` and ``HERMES_MIRRORS``, which
every step gets set to the folders the import read (the first line printed exports them). A step that
fails stops the run (``--keep-going`` runs the rest).
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from hermes_eval.cli.import_options import FLAGS
from hermes_eval.config.benchmarks import (LOCATIONS, Benchmark, Variant, benchmark, boards, expand, for_import,
                                           sweeps_by_experiment)
from hermes_eval.core.errors import UserError

STEPS = ("import", "sweep", "board")
ALL_GROUPS = "all"


@dataclass(frozen=True)
class Step:
    """One command: its words after ``hermes-eval``."""

    what: str  # import, sweep or board
    words: tuple[str, ...]

    def shown(self) -> str:
        return " ".join(["hermes-eval", *(shlex.quote(w) for w in self.words)])


def chosen(names: Sequence[str], board: str | None, conf_dir: Path) -> dict[str, Benchmark]:
    """The records named, or every record of ``board``, by name."""
    if board:
        known = boards(conf_dir)
        if board not in known:
            raise UserError(f"benchmark --board {board}: no such board; boards: {', '.join(sorted(known))}")
        return {b.name: b for b in known[board].records} | {n: benchmark(n, conf_dir) for n in names}
    if not names:
        raise UserError("benchmark: name a record (conf/benchmarks/NAME.yaml) or --board BOARD; "
                        "`hermes-eval benchmark --help` lists them")
    return {n: benchmark(n, conf_dir) for n in names}


def variants_of(records: Mapping[str, Benchmark], wanted: Sequence[str]) -> list[tuple[Benchmark, Variant]]:
    """Every variant of ``records``, or those named in ``wanted`` (each must be one of theirs)."""
    every = [(b, v) for b in records.values() for v in b.variants]
    if not wanted:
        return every
    names = {v.name for _, v in every}
    stray = [w for w in wanted if w not in names]
    if stray:
        raise UserError(f"benchmark --variants: {stray[0]!r} is not a variant of {', '.join(records)}; "
                        f"theirs: {', '.join(sorted(names))}")
    return [(b, v) for b, v in every if v.name in wanted]


def import_step(record: Benchmark, variant: Variant, folders: Mapping[str, str | None],
                overrides: Sequence[str] = (), data: str | None = None) -> Step:
    """``datasets import`` of one variant, its placeholders filled with ``folders`` (``data``: a folder laid
    out as the record's data folder to read instead, e.g. its test slice)."""
    values = for_import(variant.name, data or record.data.path, folders)
    words = [record.importer, *(expand(p, values) for p in variant.paths)]
    for key, value in variant.options:
        value = expand(value, values)
        words += [FLAGS[key], value] if key in FLAGS else [f"{key}={value}"]
    return Step("import", ("datasets", "import", *words, f"name={variant.name}", *overrides))


def runs_of(record: Benchmark, overrides: Sequence[str]) -> str:
    """The runs folder of the record's board, unless the overrides set ``paths.runs``."""
    given = [o.split("=", 1)[1] for o in overrides if o.startswith("paths.runs=")]
    return given[-1] if given else record.runs


def sweep_steps(records: Mapping[str, Benchmark], variants: Sequence[tuple[Benchmark, Variant]], group: str,
                every: Mapping[str, Benchmark], overrides: Sequence[str] = ()) -> list[Step]:
    """One sweep per experiment of the chosen records in ``group``, over the chosen variants' overlays
    (``+benchmark=`` given only when that is not the experiment's whole list)."""
    allowed = {o.name for _, v in variants for o in v.overlays}
    whole = {exp: [o for _, s in parts for o in s.overlays] for exp, parts in sweeps_by_experiment(every).items()}
    steps = []
    for exp, parts in sweeps_by_experiment(records).items():
        first_record, first = parts[0]
        if group not in (ALL_GROUPS, first.group):
            continue
        overlays = [o for _, s in parts for o in s.overlays if o in allowed]
        if not overlays:
            continue
        words = ["sweep", f"experiment={exp}", *([] if runs_of(first_record, overrides) != first_record.runs
                                                  else [f"paths.runs={first_record.runs}"])]
        if overlays != whole[exp]:
            words.append(f"+benchmark={','.join(overlays)}")
        if first.n_jobs is not None:
            words.append(f"hydra.launcher.n_jobs={first.n_jobs}")
        steps.append(Step("sweep", (*words, *overrides)))
    return steps


def board_steps(records: Mapping[str, Benchmark], overrides: Sequence[str] = ()) -> list[Step]:
    """``leaderboard`` of every board the records are on, with that board's anchors."""
    out: dict[str, Step] = {}
    for b in records.values():
        out.setdefault(b.board_name, Step("board", ("leaderboard", "--runs", runs_of(b, overrides), "--out", b.board,
                                                    "--anchors", b.board_name, "--merge")))
    return list(out.values())


def plan(args, conf_dir: Path) -> tuple[dict[str, str], list[Step]]:
    """(the folders' environment every step gets, every step of the run ``args`` ask for, in order)."""
    from hermes_eval.config.benchmarks import benchmarks

    names = [w for w in args.names if "=" not in w]
    overrides = [w for w in args.names if "=" in w]
    records = chosen(names, args.board, conf_dir)
    variants = variants_of(records, args.variants)
    folders = {"BENCH_DATA": args.data, "HERMES_MIRRORS": args.mirrors}
    steps: list[Step] = []
    if "import" in args.steps:
        steps += [import_step(b, v, folders, overrides) for b, v in variants]
    if "sweep" in args.steps:
        steps += sweep_steps(records, variants, args.group, benchmarks(conf_dir), overrides)
    if "board" in args.steps:
        steps += board_steps(records, overrides)
    return {loc.env: loc.value(folders.get(key)) for key, loc in LOCATIONS.items()}, steps


def check_overrides(words: Sequence[str]) -> None:
    """The ``key=value`` words given for every step, checked against the config before any step runs: a mistyped
    key is one line naming the closest ones (``config/known_keys.py``), not a failure hours into the sweeps."""
    overrides = [w for w in words if "=" in w]
    if overrides:
        from hermes_eval.config.compose import compose, first_of_sweeps

        compose(first_of_sweeps(overrides))


def reproduce(args, conf_dir: Path) -> int:
    """Run the chosen records' reproductions (``--reproduce``) in this process, with the folders given."""
    from hermes_eval.reproduce.record_run import exit_code, reproduce_record

    records = chosen([w for w in args.names if "=" not in w], args.board, conf_dir)
    folders = {"BENCH_DATA": args.data, "HERMES_MIRRORS": args.mirrors}
    env = {loc.env: loc.value(folders.get(key)) for key, loc in LOCATIONS.items()}
    print("export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()), flush=True)
    named = [(b, r) for b in records.values() for r in b.reproductions]
    if not named:
        raise UserError(f"benchmark --reproduce: {', '.join(records)} name no reproductions (a record's "
                        f"reproductions: field, hermes_eval/reproduce/registry.py)")
    if args.dry_run:
        for b, r in named:
            print(f"[reproduce] {b.name}: {r.name}" + "".join(f" {k}={v}" for k, v in r.options), flush=True)
        return 0
    os.environ.update(env)
    done = []
    for b in records.values():
        data = Path(expand(b.data.path, for_import(b.name, b.data.path, folders)))
        done += reproduce_record(b, data, say=lambda line: print(line, flush=True), keep_going=args.keep_going)
    return exit_code(done)


def run(args, conf_dir: Path) -> int:
    """Print and run every step; stop at the first that fails (unless ``--keep-going``)."""
    if getattr(args, "reproduce", False):
        return reproduce(args, conf_dir)
    check_overrides(args.names)
    env, steps = plan(args, conf_dir)
    print("export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()), flush=True)
    worst = 0
    for step in steps:
        print(f"[{step.what}] {step.shown()}", flush=True)
        if args.dry_run:
            continue
        code = subprocess.run([sys.executable, "-m", "hermes_eval.cli.main", *step.words],
                              env={**os.environ, **env}).returncode
        if code:
            worst = worst or code
            if not args.keep_going:
                print(f"benchmark: stopped: `{step.shown()}` exited {code}", file=sys.stderr)
                return code
    return worst


def wrap(text: str, indent: int) -> str:
    """``text`` in lines of 100 characters, indented, continuation lines 4 deeper (usage listings)."""
    return textwrap.fill(text, 100, initial_indent=" " * indent, subsequent_indent=" " * (indent + 4),
                         break_on_hyphens=False, break_long_words=False)


def listing(conf_dir: Path) -> str:
    """Every record with its variants (query set, import options, overlays) and sweeps by group."""
    from hermes_eval.config.benchmarks import benchmarks

    lines = [wrap("benchmarks (conf/benchmarks/NAME.yaml): hermes-eval benchmark NAME [--variants QUERYSET,..] "
                  "imports every variant, runs its sweeps and builds its board", 0)]
    for b in benchmarks(conf_dir).values():
        lines.append(wrap(f"{b.name}: {b.title} (import {b.importer}; board {b.board}; main score {b.main_score})", 2))
        for v in b.variants:
            options = " ".join(f"{k}={val}" for k, val in v.options if not val.startswith("{"))
            lines.append(wrap(f"{v.name}{' ' + options if options else ''}  [+benchmark="
                              f"{','.join(o.name for o in v.overlays)}]", 6))
        groups: dict[str, list[str]] = {}
        for sw in b.sweeps:
            groups.setdefault(sw.group, []).append(sw.experiment)
        lines.append(wrap("sweeps: " + "; ".join(f"{g}: {', '.join(e)}" for g, e in groups.items()), 6))
    return "\n".join(lines)


def _words(text: str) -> list[str]:
    return [w for w in text.split(",") if w]


def _steps(text: str) -> list[str]:
    steps = _words(text)
    unknown = [w for w in steps if w not in STEPS]
    if unknown:
        raise argparse.ArgumentTypeError(f"{unknown[0]!r} is not a step; use {', '.join(STEPS)}")
    return steps


def add_parser(sub, func, argv: Sequence[str], conf_dir: Path, help: str) -> None:
    """The ``benchmark`` subcommand, run by ``func`` (the records listed in its help only when ``argv`` is
    that command's)."""
    p = sub.add_parser("benchmark", help=help, description=__doc__,
                       epilog=listing(conf_dir) if list(argv[:1]) == ["benchmark"] else None,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=func)
    p.add_argument("names", nargs="*", help="records (conf/benchmarks/NAME.yaml), then Hydra overrides for the "
                   "imports and sweeps (key=value; paths.runs=DIR replaces runs/BOARD for the sweeps and the board)")
    p.add_argument("--board", help="every record on this board (e.g. benchmarks, swebench, repoeval)")
    p.add_argument("--variants", type=_words, default=[], help="only these variants (query sets, comma-separated) "
                   "and their overlays")
    p.add_argument("--group", default="main", help="the sweeps of this group (main, dense, ...; all: every one)")
    p.add_argument("--steps", type=_steps, default=list(STEPS), help=f"which steps, comma-separated (default "
                   f"{','.join(STEPS)})")
    p.add_argument("--data", default=None, help=f"BENCH_DATA: {LOCATIONS['BENCH_DATA'].help} (default "
                   f"${LOCATIONS['BENCH_DATA'].env}, else {LOCATIONS['BENCH_DATA'].default})")
    p.add_argument("--mirrors", default=None, help=f"HERMES_MIRRORS: {LOCATIONS['HERMES_MIRRORS'].help} "
                   f"(default ${LOCATIONS['HERMES_MIRRORS'].env}, else {LOCATIONS['HERMES_MIRRORS'].default})")
    p.add_argument("--reproduce", action="store_true", help="instead of the steps, run the records' reproductions "
                   "(reproductions:): their tables into the board's README, their anchors checked")
    p.add_argument("--dry-run", action="store_true", help="print the steps, run none")
    p.add_argument("--keep-going", action="store_true", help="run every step (or reproduction) even after one failed")
