"""`hermes-eval` entry points: run, sweep, leaderboard, datasets, benchmark, costs, serve."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from hermes_eval.config.compose import CONF_DIR, compose, first_of_sweeps
from hermes_eval.config.source_overrides import quote_source_lists
from hermes_eval.core.errors import UserError, format_error
from hermes_eval.core.log import setup_logging

log = logging.getLogger(__name__)
BENCHMARK_HELP = ("a benchmark record's whole run (conf/benchmarks/NAME.yaml): import every variant, run its sweeps, "
                  "build its board")


def _launch(overrides: list[str], multirun: bool) -> int:
    """Run the Hydra task (one run or a multirun sweep); a sweep stopped by Ctrl-C says where it stood in one
    line (cli/interrupted.py) and exits 130."""
    try:
        return _launch_hydra(overrides, multirun)
    except KeyboardInterrupt as stop:
        if not multirun:
            raise
        from hermes_eval.cli.interrupted import EXIT_CODE, SweepInterrupted, interrupted_line

        print(interrupted_line(stop.stopped if isinstance(stop, SweepInterrupted) else None, overrides),
              file=sys.stderr, flush=True)
        return EXIT_CODE


def _launch_hydra(overrides: list[str], multirun: bool) -> int:
    """Run the Hydra task (one run or a multirun sweep) after validating the overrides. A single run whose
    composition is cached (``config/compose_cache.py``) never imports Hydra: a tenth of a small run."""
    from hermes_eval.config.settings import settings_from

    overrides = quote_source_lists(overrides)  # what Hydra's own parser sees below, too
    cfg = compose(first_of_sweeps(overrides) if multirun else overrides)
    settings = settings_from(cfg)  # fail before launching
    if not multirun:
        from hermes_eval.cli.job import run_job

        try:
            run_job(cfg, multirun=False, settings=settings)
        except SystemExit as exc:
            return int(exc.code or 0)
        return 0
    import hydra

    from hermes_eval.cli.job import task
    from hermes_eval.cli.sweep_launcher import register

    register()

    main = hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")(task)
    sys.argv = ["hermes-eval", *(["--multirun"] if multirun else []), *overrides]
    from hermes_eval.cli.sweep_launcher import LAST_SWEEP
    from hermes_eval.cli.sweep_summary import exit_code

    LAST_SWEEP.clear()
    try:
        main()
    except SystemExit as exc:
        return int(exc.code or 0)
    return exit_code(LAST_SWEEP) if multirun else 0


def _stored(arg, stored: dict, key: str, default):
    """A leaderboard setting: given on the command line, else the one the results were built with."""
    return arg if arg is not None else stored.get(key, default)


def cmd_leaderboard(args) -> int:
    from hermes_eval.report.freshness import board_key, stamp, stamped_outputs, up_to_date
    from hermes_eval.report.gate_db import gate_db
    from hermes_eval.report.options import ReportSettings

    results = Path(args.from_results) if args.from_results else None
    stored: dict = {}
    if results is not None:
        from hermes_eval.report.board_results import read_settings

        stored = read_settings(results)
    anchor_ref = _stored(args.anchors, stored, "anchors", None)
    anchors, columns, main_scores, shown = ((), (), (), ())
    defaults = ReportSettings()
    limits = defaults.limits
    if anchor_ref:
        from hermes_eval.report.anchors import anchors_for, limits_for, main_scores_for, shown_for

        anchors, columns = anchors_for(anchor_ref, CONF_DIR)
        main_scores = main_scores_for(anchor_ref, CONF_DIR)
        shown = shown_for(anchor_ref, CONF_DIR)
        limits = limits_for(anchor_ref, CONF_DIR)
    settings = ReportSettings(baseline=_stored(args.baseline, stored, "baseline", None),
                              stat_test=_stored(args.stat_test, stored, "stat_test", defaults.stat_test),
                              alpha=_stored(args.alpha, stored, "alpha", defaults.alpha),
                              n_permutations=stored.get("n_permutations", defaults.n_permutations),
                              seed=stored.get("seed", defaults.seed), columns=columns, anchors=anchors,
                              main_scores=main_scores, shown=shown, limits=limits)
    records = None
    if results is None:
        from hermes_eval.record.results import load_records, unusable_runs

        records = load_records(Path(args.runs))  # read once: reading checksums every run file
        for line in unusable_runs(records):  # named on every call, the board counts them too
            print(f"hermes-eval: warning: {line}", file=sys.stderr)
    source = results if results is not None else Path(args.runs)
    if args.values_only is not None and results is not None:
        raise UserError("leaderboard: --values-only keeps runs of --runs as per-query values; --from-results "
                        "rebuilds a board as its results keep it (drop one of the two)")
    out_dir = Path(args.out) if args.out else (results.parent if results is not None else Path("reports"))
    given = (settings, anchor_ref) if args.values_only is None else (settings, anchor_ref, tuple(args.values_only))
    key = board_key(source, given, gate_db(out_dir))
    if not args.force and up_to_date(out_dir, key, stamped_outputs(out_dir)):
        out = stamped_outputs(out_dir)
        log.info("leaderboards up to date with %s (same %s, settings and report code): kept; --force rebuilds",
                 source, "results" if results is not None else "records")
    else:  # matplotlib, pandas, ranx: only to build
        from hermes_eval.report.publish import build_from_results, build_reports

        out = (build_from_results(results, out_dir, settings) if results is not None
               else build_reports(source, out_dir, settings, records, anchors=anchor_ref, merge=args.merge,
                                  values_only=args.values_only is not None,
                                  values_only_match=tuple(args.values_only or ())))
        stamp(out_dir, key, out)
    for p in out:
        print(p)
    return 0


def cmd_compare(args) -> int:
    from hermes_eval.report.head_to_head_md import render

    text = render(Path(args.run_a), Path(args.run_b), metric=args.metric, by=tuple(args.by), top=args.top, k=args.k)
    if args.out:
        from hermes_eval.cache.content import atomic_write_bytes

        atomic_write_bytes(Path(args.out), text.encode("utf-8"))
        print(args.out)
    else:
        print(text, end="")
    return 0


def cmd_gate(args) -> int:
    from hermes_eval.gate.run import run_gate

    return run_gate(args.name, args.overrides, compose, CONF_DIR, Path(args.reports),
                    update_baseline=args.update_baseline, reason=args.reason or "",
                    runs_root=Path(args.runs), against=args.against, rules=args.rules)


def cmd_decide(args) -> int:
    from hermes_eval.decide.run import run_decision

    rebaseline = None
    if args.apply:
        from hermes_eval.gate.run import run_gate

        def rebaseline(gate: str, reason: str) -> int:
            return run_gate(gate, [], compose, CONF_DIR, Path(args.out), update_baseline=True, reason=reason,
                            runs_root=Path(args.runs))

    return run_decision(args.name, compose, CONF_DIR, Path(args.runs), Path(args.out), rerun=args.rerun,
                        rebaseline=rebaseline)


def cmd_costs(args) -> int:
    from hermes_eval.costs.benches import run_benches

    if args.cmd == "bench":  # the old name, for one release
        print("hermes-eval bench is now hermes-eval costs (reports/costs.md, costs.json); bench goes next release",
              file=sys.stderr)
    results = run_benches(Path(args.out), Path(args.cache), args.only or None)
    failed = [n for n, r in results["benches"].items() if "error" in r]
    return 1 if failed else 0


def cmd_serve(args) -> int:
    from hermes_eval.config.settings import settings_from
    from hermes_eval.serve.server import serve

    return serve(settings_from(compose(args.overrides)), args.host, args.port)


def cmd_run(args) -> int:
    extra = ["rerun=true"] if args.rerun else []
    return _launch([*args.overrides, *extra], multirun=args.cmd == "sweep")


def cmd_datasets(args) -> int:
    from hermes_eval.cli import datasets

    return datasets.run(args, compose)


def cmd_benchmark(args) -> int:
    from hermes_eval.cli import benchmark

    return benchmark.run(args, CONF_DIR)


GATE_DOC = """Run the gate suite (conf/gate/NAME.yaml). Quality rules compare each arm's metrics with the
committed baseline (reports/baseline/NAME.json), exactly or within the spec's tolerance. Latency rules
compare this tree with the baseline ref's code in the same run: the ref's files are unpacked from git
into the cache, and two processes of this tree (an A/A pair) and one of the ref's, each started with
PYTHONPATH at its tree and the same Python environment, time the same queries block by block in
rotating order. A slowdown is called only when the median per-query ratio reaches min_ratio, a
one-sided Wilcoxon signed-rank test rejects and the ratio's CI lies above the A/A spread of the
same run; a run that can neither show nor rule out such a slowdown is inconclusive (exit 3)."""


def _exit_codes() -> str:
    from hermes_eval.gate.exit_codes import EXIT_CODES

    import textwrap

    return "exit codes:\n" + "\n".join(textwrap.fill(text, 100, initial_indent=f"  {code}  ", subsequent_indent="     ")
                                        for code, text in EXIT_CODES.items())


def _datasets_epilog(argv: list[str]) -> str | None:
    """The import formats and recorded benchmarks, for ``datasets --help`` (read only for that command)."""
    if argv[:1] != ["datasets"]:
        return None
    from hermes_eval.cli.datasets import usage_text

    return usage_text(CONF_DIR)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="hermes-eval", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run", help="one run; arguments are Hydra overrides")
    p.set_defaults(func=cmd_run)
    p.add_argument("overrides", nargs="*")
    p.add_argument("--rerun", action="store_true", help="run even if a finished record exists")
    p = sub.add_parser("sweep", help="a Hydra multirun; e.g. `sweep experiment=default`")
    p.set_defaults(func=cmd_run)
    p.add_argument("overrides", nargs="*")
    p.add_argument("--rerun", action="store_true", help="rerun jobs whose finished record exists")
    p = sub.add_parser("leaderboard", help="rebuild the leaderboards from every run record (writing the board's "
                       "results beside it, OUT/results), or from such committed results alone")
    p.set_defaults(func=cmd_leaderboard)
    p.add_argument("--runs", default="runs")
    p.add_argument("--from-results", metavar="DIR", default=None, help="build from a board's committed results "
                   "(e.g. reports/benchmarks/swebench/results) instead of --runs, with the settings they were built "
                   "with unless given here: the same pages as from the runs (make boards)")
    p.add_argument("--out", default=None, help="where the board goes (default reports, or the folder holding "
                   "--from-results)")
    p.add_argument("--merge", action="store_true", help="merge the runs into the board's committed results "
                   "(OUT/results) instead of replacing them: a run replaces the result of its config hash, the "
                   "other results stay (those of a query set re-imported since are dropped and named)")
    p.add_argument("--values-only", nargs="*", metavar="GLOB", default=None, help="keep the runs as per-query "
                   "values of the measures their set's table shows, without rankings, query text, latency "
                   "samples or gold code: their rows, CIs, marks, tied groups, strata and hybrid verdict stay, "
                   "the curves, misses and explorer leave them out (with --merge: arms a board's results have "
                   "no room for); the committed results whose run folder's name matches a GLOB too")
    p.add_argument("--baseline", default=None, help="the arm every row is tested against; default: the "
                   "best BM25-only arm, else the lowest-ranked row (config-hash prefix, run dir, system, "
                   "or chunker/system)")
    p.add_argument("--stat-test", default=None, choices=["student", "fisher"],
                   help="ranx paired test (default student)")
    p.add_argument("--alpha", type=float, default=None, help="significance level after Holm (default 0.05)")
    p.add_argument("--force", action="store_true", help="rebuild even when the records, settings and "
                   "report code are those of the last build")
    p.add_argument("--anchors", default=None, help="published numbers to set beside ours: a board's (the anchors "
                   "and columns of the conf/benchmarks records on it, e.g. --anchors swebench) or an anchors file; "
                   "its columns are shown on every board")
    p = sub.add_parser("compare", help="two runs of one query set, query by query: wins, losses, the paired "
                       "difference with its CI per stratum, misses by cause, the queries that differ most")
    p.set_defaults(func=cmd_compare)
    p.add_argument("run_a", help="a run folder (A, the reference)")
    p.add_argument("run_b", help="a run folder (B, compared against A)")
    p.add_argument("--metric", default="ndcg@10", help="a per-query metric both runs recorded (default ndcg@10)")
    p.add_argument("--by", nargs="*", default=["language", "repo", "kind"], help="strata to break the difference "
                   "down by (columns of per_query.parquet; default language repo kind)")
    p.add_argument("--top", type=int, default=5, help="queries shown each way (default 5)")
    p.add_argument("--k", type=int, default=10, help="depth at which a query counts as missed (default 10)")
    p.add_argument("--out", help="write the markdown here instead of stdout")
    p = sub.add_parser("decide", help="run a decision's arms, apply its rule, write reports/decisions/NAME.md")
    p.set_defaults(func=cmd_decide)
    p.add_argument("name", help="conf/decision/NAME.yaml")
    p.add_argument("--runs", default="runs")
    p.add_argument("--out", default="reports")
    p.add_argument("--rerun", action="store_true", help="ignore finished records: re-run every arm "
                   "(latency is always measured now, A before and after the others)")
    p.add_argument("--apply", action="store_true", help="on ADOPT, write the config change the decision's "
                   "`apply` names and re-baseline its gates (reason: the decision record)")
    p = sub.add_parser("gate", help="regression gate: exit 0 pass, 1 regression, 2 could not evaluate, "
                       "3 latency inconclusive", description=GATE_DOC, epilog=_exit_codes(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=cmd_gate)
    p.add_argument("overrides", nargs="*", help="Hydra overrides applied to every arm (of both trees)")
    p.add_argument("--name", default="nightly", help="conf/gate/NAME.yaml")
    p.add_argument("--reports", default="reports", help="holds baseline/, gate/, gate.sqlite and gate.html")
    p.add_argument("--runs", default="runs")
    p.add_argument("--against", metavar="REF", help="git ref whose code the latency rules measure against "
                   "(default: the commit recorded in the baseline); must be in the local history")
    p.add_argument("--rules", choices=["all", "quality", "latency"], default="all",
                   help="which rules to evaluate (default all)")
    p.add_argument("--update-baseline", action="store_true", help="measure the quality arms and rewrite "
                   "reports/baseline/NAME.json (recording who, why, when and the commit)")
    p.add_argument("--reason", help="why the baseline changes (required with --update-baseline)")
    for name, about in (("costs", "what the parts cost (speed, memory) -> reports/costs.md and costs.json"),
                        ("bench", "old name of costs (one release)")):
        p = sub.add_parser(name, help=about)
        p.set_defaults(func=cmd_costs)
        p.add_argument("--out", default="reports")
        p.add_argument("--cache", default=".cache")
        p.add_argument("--only", nargs="*", help="sweep_reuse harness_overhead embedding_throughput scaling "
                                                 "metrics_speed embedders swebench_cost swebench_dense_cost (these two "
                                                 "need HERMES_MIRRORS) snapshot_sets (HERMES_COSTS_SNAPSHOT_SET) "
                                                 "small_set boards_build")
    p = sub.add_parser("serve", help="serve the configured pipeline as a HERMES-style POST /search "
                       "service on loopback (score it with retriever=http)")
    p.set_defaults(func=cmd_serve)
    p.add_argument("overrides", nargs="*", help="Hydra overrides, as for run")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--host", default="127.0.0.1", help="loopback only")
    p = sub.add_parser("datasets", help="query sets: generate, list, show, check, import, mine, export",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_datasets_epilog(argv))
    p.set_defaults(func=cmd_datasets)
    p.add_argument("action", choices=["generate", "list", "show", "check", "import", "mine", "export"])
    p.add_argument("rest", nargs="*", help="generate [CONFIG|all]; show/check NAME; import FORMAT PATHS.. "
                   "[key=value ..] [name=NAME] (formats and benchmarks below); mine SOURCE [since=DATE] "
                   "[until=DATE] [key=value ..] [name=NAME] (= import mined: a repository's commits as queries); "
                   "export beir OUT; plus Hydra overrides")
    p.add_argument("--force", action="store_true", help="generate: rebuild even if it exists")
    p.add_argument("--repos", default=None, help="import swebench: the folder holding the repositories' "
                   "clones or bare mirrors (OWNER+NAME/repo, OWNER/NAME, NAME, with or without .git)")
    if argv[:1] == ["benchmark"] or not argv or argv[0].startswith("-"):
        from hermes_eval.cli.benchmark import add_parser as add_benchmark_parser

        add_benchmark_parser(sub, cmd_benchmark, argv, CONF_DIR, BENCHMARK_HELP)
    else:  # its options are read only when it is the command: its module and the records' stay unimported
        sub.add_parser("benchmark", help=BENCHMARK_HELP)
    args, extra = parser.parse_known_args(argv)
    if extra and args.func is cmd_datasets and not any(e.startswith("-") for e in extra):
        args.rest = [*args.rest, *extra]  # words after an option (`import swebench F --repos D repos=..`)
    elif extra and args.func is cmd_benchmark and not any(e.startswith("-") for e in extra):
        args.names = [*args.names, *extra]  # overrides after an option (`benchmark cosqa --steps import paths..`)
    elif extra:  # one line naming the command's closest options, not argparse's usage and error
        from hermes_eval.cli.stray_words import refusal

        print(format_error(refusal(sub.choices[args.cmd], args.cmd, extra)), file=sys.stderr)
        return 2
    setup_logging()
    try:
        return args.func(args)
    except UserError as exc:
        print(format_error(exc), file=sys.stderr)
        return exc.exit_code


def entry() -> None:
    """The ``hermes-eval`` program: :func:`main` with the parts' probes kept between its processes
    (``retrievers/identity/probe_memo.py``: here the code is what the files hold), then an exit without the
    interpreter's teardown (``cli/fast_exit.py``)."""
    from retrievers.identity.probe_memo import turn_on

    turn_on()
    code = main()
    from hermes_eval.cli.fast_exit import leave

    leave(code)


if __name__ == "__main__":
    entry()
