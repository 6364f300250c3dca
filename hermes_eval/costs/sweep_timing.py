"""`make sweep` timed phase by phase, cold (a fresh clone) and warm (the same clone again).

    python -m hermes_eval.costs.sweep_timing --label after [--label-ref before=REF] --out reports/sweep_timing.md

For each label, clones the repository at a ref into ``WORK/<label>/main`` (``../shared`` linked beside
it, matplotlib's and Hugging Face's caches pointed inside the clone's folder so nothing global is
warm but pip's own download cache, and with ``--empty-package-caches`` not even that: pip and uv
get new empty caches inside the folder, as on a machine that never installed), then runs make sweep's steps one by one: ``make setup``,
``datasets generate``, ``sweep experiment=default``, ``leaderboard``; then all four again (warm).
Every step reports wall seconds and CPU seconds (user+sys of the step and its children), and the
load average before and after, because this machine is shared. With two labels it also compares
the two cold sweeps' records (:mod:`hermes_eval.record.sameness`).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import time
from pathlib import Path

STEPS = (("setup", ["make", "setup"]),
         ("generate", [".venv/bin/hermes-eval", "datasets", "generate"]),
         ("sweep", [".venv/bin/hermes-eval", "sweep", "experiment=default"]),
         ("leaderboard", [".venv/bin/hermes-eval", "leaderboard"]))
MAKE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false"}


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def timed(cmd: list[str], cwd: Path, env: dict, log: Path) -> dict:
    """Wall and CPU seconds of ``cmd`` (children included, as /usr/bin/time counts them)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with log.open("w") as out:
        code = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": round(wall, 1), "cpu": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
            "exit": code}


def measure(repo: Path, ref: str, work: Path, empty_package_caches: bool = False) -> dict:
    """Cold then warm make-sweep steps of ``ref`` in a fresh clone under ``work``."""
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", str(repo), str(work / "main")], check=True)
    subprocess.run(["git", "checkout", "-q", ref], cwd=work / "main", check=True)
    shared = repo.resolve().parent / "shared"
    if shared.exists():
        (work / "shared").symlink_to(shared)
    env = dict(os.environ, **MAKE_ENV, MPLCONFIGDIR=str(work / "mpl"), HF_HOME=str(work / "hf"))
    if empty_package_caches:  # downloads from the registry again; local wheel folders pip names stay
        env.update(PIP_CACHE_DIR=str(work / "pip-cache"), UV_CACHE_DIR=str(work / "uv-cache"))
    out: dict = {}
    for phase in ("cold", "warm"):
        rows = {"load_before": _load()}
        for name, cmd in STEPS:
            rows[name] = timed(cmd, work / "main", env, work / f"{phase}-{name}.log")
        rows["load_after"] = _load()
        out[phase] = rows
    return out


def render(results: dict[str, dict], identity: str | None, empty_package_caches: bool = False) -> str:
    labels = list(results)
    caches = ("pip and uv started with empty caches (`--empty-package-caches`)" if empty_package_caches
              else "pip's and uv's caches were as found")
    lines = ["# make sweep: where the time goes", "",
             f"Produced by `python -m hermes_eval.costs.sweep_timing` (see its docstring); {caches}. Each cell is "
             "wall s / CPU s (user+sys, children included). The machine is shared: the load average "
             "(1, 5, 15 min) before and after each phase is shown; compare CPU seconds across loads.", ""]
    head = ["step"] + [f"{lab} {ph}" for lab in labels for ph in ("cold", "warm")]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, _ in STEPS:
        cells = [name]
        for lab in labels:
            for ph in ("cold", "warm"):
                r = results[lab][ph][name]
                cells.append(f"{r['wall']} / {r['cpu']}" + ("" if r["exit"] == 0 else f" (exit {r['exit']})"))
        lines.append("| " + " | ".join(cells) + " |")
    totals = ["**make sweep**"]
    for lab in labels:
        for ph in ("cold", "warm"):
            rs = [results[lab][ph][n] for n, _ in STEPS]
            totals.append(f"**{sum(r['wall'] for r in rs):.1f} / {sum(r['cpu'] for r in rs):.1f}**")
    lines.append("| " + " | ".join(totals) + " |")
    loads = ["load before -> after"] + [f"{results[lab][ph]['load_before']} -> {results[lab][ph]['load_after']}"
                                         for lab in labels for ph in ("cold", "warm")]
    lines.append("| " + " | ".join(loads) + " |")
    if identity:
        lines += ["", "Records of the two cold sweeps (`python -m hermes_eval.record.sameness --allow-added`: "
                      "fields only the second records are listed, not compared):", "",
                  "```", identity.strip(), "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hermes_eval.costs.sweep_timing", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", default=".", help="the repository to clone (default: here)")
    p.add_argument("--ref", action="append", default=[], metavar="LABEL=REF",
                   help="a labelled git ref to time (repeatable); default after=HEAD")
    p.add_argument("--work", default="/tmp/sweep-timing", help="where the clones go")
    p.add_argument("--out", default="reports/sweep_timing.md")
    p.add_argument("--empty-package-caches", action="store_true",
                   help="give pip and uv new empty caches (a machine that never installed)")
    args = p.parse_args(argv)
    refs = dict(r.split("=", 1) for r in args.ref) or {"after": "HEAD"}
    repo = Path(args.repo).resolve()
    results = {label: measure(repo, ref, Path(args.work) / label, args.empty_package_caches)
               for label, ref in refs.items()}
    identity = None
    if len(refs) == 2:
        a, b = (Path(args.work) / label / "main" / "runs" for label in refs)
        proc = subprocess.run([str(repo / ".venv/bin/python"), "-m", "hermes_eval.record.sameness", "--allow-added",
                               str(a), str(b)],
                              capture_output=True, text=True, cwd=repo)
        identity = proc.stdout
    Path(args.out).write_text(render(results, identity, args.empty_package_caches))
    print(Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
