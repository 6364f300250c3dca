"""Time this tree, an A/A twin of it and the baseline tree in one run, interleaved block by block.

Each round starts three probe processes (``hermes_eval.gate.probe``): ``head`` and ``twin`` run
this checkout, ``base`` the baseline ref's tree. Once all three have built their pipelines, every
arm's queries are cut into blocks, and for each block the three processes time it one after
another, in an order that cycles through all six permutations (so none is systematically first,
after a context switch, or last). Load that comes and goes hits all three within one block;
``twin`` against ``head`` is the A/A noise of the same run.

Why new processes every round: a process has a speed of its own. Two processes of the same code
on this 2-core KVM machine kept one offset for their whole life (up to 1.07x on bm25's 2.8 ms
queries, the same sign in all 6 rounds), whether or not address-space randomisation was off
(``setarch -R``) or all probes were pinned to one core (``taskset``): where their memory landed,
not the order or the core, sets it. With one process per role that offset decides the ratio; with
a fresh triple per round it is averaged away: over 8 rounds the A/A offsets of 3 runs stayed
within 1.018x on bm25 and dense (the per-round offsets spread from 0.96x to 1.075x).

A new process need not be a new interpreter: with ``paired.preload`` (the model libraries) every probe is
forked from a zygote that imported them once (zygote.py), and builds its tree's pipelines in about 1.6 s
instead of 7 s. Every probe is still its own process, each round three new ones.
"""
from __future__ import annotations

import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Mapping

import numpy as np

from hermes_eval.gate.spec import PairedDesign
from hermes_eval.gate.zygote import Zygote, ZygoteError

ROLES = ("head", "twin", "base")
ORDERS = list(itertools.permutations(range(len(ROLES))))


class ProbeError(RuntimeError):
    """A probe failed to start or to answer: the latency rules cannot be evaluated."""


@dataclass(frozen=True)
class Timings:
    """``ns[role][arm][stage]``: an array (rounds x queries) of nanoseconds; ``pids[role]``: the
    process that timed each round."""

    ns: dict[str, dict[str, dict[str, np.ndarray]]]
    queries: int
    rounds: int
    pids: dict[str, tuple[int, ...]] = field(default_factory=dict)


HARNESS = Path(__file__).with_name("probe.py")
"""The timing loop every probe runs, whichever tree it builds: this checkout's."""
BOOT = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"
SINGLE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
"""Probes search on one thread: a pool of two threads on two cores, one of them busy, times the
scheduler more than the code (with a core kept busy, dense searches 1.5-1.8x apart between trees)."""


class Probe:
    """One probe process: started fresh (``zygote`` None) or forked from the zygote (zygote.py), either way a
    new process speaking the probe protocol over its stdin and stdout."""

    def __init__(self, role: str, tree: Path, log: IO[bytes], zygote: Zygote | None = None):
        self.role = role
        self.proc: subprocess.Popen | None = None
        if zygote is not None:
            self.pid, self.stdin, self.stdout = zygote.fork(tree, log)
            return
        # one hash seed for all: set and dict orders (tokenizers, vocabularies) then match across processes
        self.proc = subprocess.Popen([sys.executable, "-c", BOOT, str(HARNESS)], cwd=tree, env=probe_env(tree),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.pid, self.stdin, self.stdout = self.proc.pid, self.proc.stdin, self.proc.stdout

    def send(self, msg: dict) -> None:
        self.stdin.write(json.dumps(msg) + "\n")
        self.stdin.flush()

    def receive(self) -> dict:
        line = self.stdout.readline()
        if not line:
            code = f" (code {self.proc.wait()})" if self.proc is not None else ""  # a zygote's child: not ours to wait
            raise ProbeError(f"the {self.role} probe exited{code} without answering")
        msg = json.loads(line)
        if "error" in msg:
            raise ProbeError(f"the {self.role} probe failed: {msg['error']}")
        return msg

    def close(self) -> None:
        try:
            self.send({"quit": True})
        except (OSError, ValueError):
            pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        else:  # not our child (the zygote's, reaped by the kernel): its closed stdout says it ended
            ended, _, _ = select.select([self.stdout], [], [], 30)
            if not ended:
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for stream in (self.stdin, self.stdout):
            try:
                stream.close()
            except OSError:
                pass


def probe_env(tree: Path | None) -> dict:
    """A probe's environment: this one, one thread per library, hash seed 0, no bytecode written, and ``tree``
    first on the import path (None: the zygote's, which imports nothing of any tree)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0", **SINGLE_THREAD)
    if tree is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = str(tree)
    return env


def _tail(path: Path, n: int = 600) -> str:
    try:
        return " ".join(path.read_text(errors="replace")[-n:].split())
    except OSError:
        return ""


@dataclass(frozen=True)
class RoundPlan:
    """What every round runs: each role's tree and arms, the queries, their blocks, the warmup."""

    trees: Mapping[str, Path]
    arms: Mapping[str, Mapping[str, list[str]]]
    queries: list[str]
    blocks: list[list[int]]
    names: list[str]
    warmup: int


@dataclass(frozen=True)
class RoundResult:
    """One round's timings (role -> arm -> stage -> ns per query), its processes and the next turn."""

    timings: dict[str, dict[str, dict[str, list[int]]]]
    pids: dict[str, int]
    turn: int


def measure_interleaved(trees: dict[str, Path], arms: dict[str, dict[str, list[str]]], queries: list[str],
                        design: PairedDesign) -> Timings:
    """Per role, arm and stage, ``design.rounds`` timings of every query, each round from new
    processes (see the module doc);
    ``trees[role]`` is the source tree a role runs, ``arms[role][arm]`` its Hydra overrides."""
    if design.max_queries:
        queries = queries[: design.max_queries]
    blocks = [list(range(i, min(i + design.block, len(queries)))) for i in range(0, len(queries), design.block)]
    plan = RoundPlan(trees, arms, queries, blocks, list(arms[ROLES[0]]), design.warmup)
    rounds: list[RoundResult] = []
    with tempfile.NamedTemporaryFile(prefix="hermes-gate-probes-", suffix=".log", delete=False) as log:
        log_path = Path(log.name)
        zygote = None
        try:
            if design.preload and hasattr(os, "fork") and hasattr(socket, "send_fds"):
                zygote = Zygote(design.preload, HARNESS, probe_env(None), trees[ROLES[0]], log, BOOT)
            for _ in range(design.rounds):  # fresh processes each round: see the module doc
                rounds.append(_round(plan, rounds[-1].turn if rounds else 0, log, zygote))
        except (ProbeError, ZygoteError) as exc:
            raise ProbeError(f"{exc} (probe log: {_tail(log_path)})") from None
        finally:
            if zygote is not None:
                zygote.close()
            log_path.unlink(missing_ok=True)
    ns = {r: {a: _stack([res.timings[r][a] for res in rounds]) for a in plan.names} for r in ROLES}
    return Timings(ns=ns, queries=len(queries), rounds=design.rounds,
                   pids={r: tuple(res.pids[r] for res in rounds) for r in ROLES})


def _round(plan: RoundPlan, turn: int, log: IO[bytes], zygote: Zygote | None = None) -> RoundResult:
    """One round: three new probe processes build, then time every arm's blocks in rotating order
    (``turn`` carries the rotation on from the round before)."""
    probes: list[Probe] = []
    timings: dict[str, dict[str, dict[str, list[int]]]] = {r: {} for r in ROLES}
    try:
        for role in ROLES:
            probes.append(Probe(role, plan.trees[role], log, zygote))
        for p in probes:  # they build in parallel; each answers once ready
            p.send({"protocol": 1, "arms": plan.arms[p.role], "queries": plan.queries, "warmup": plan.warmup})
        pids = {p.role: int(p.receive()["pid"]) for p in probes}
        for arm in plan.names:
            parts: dict[str, list] = {r: [] for r in ROLES}
            for block in plan.blocks:
                for i in ORDERS[turn % len(ORDERS)]:
                    probes[i].send({"arm": arm, "queries": block})
                    parts[ROLES[i]].append(probes[i].receive())
                turn += 1
            for r in ROLES:
                timings[r][arm] = _join(parts[r])
    finally:
        for p in probes:
            p.close()
    return RoundResult(timings, pids, turn)


def _join(answers: list[dict]) -> dict[str, list[int]]:
    """One round of an arm: the blocks' answers concatenated in query order, per stage."""
    out: dict[str, list[int]] = {"total": []}
    for a in answers:
        out["total"] += a["total"]
        for stage, ns in a["stages"].items():
            out.setdefault(stage, []).extend(ns)
    return out


def _stack(rounds: list[dict[str, list[int]]]) -> dict[str, np.ndarray]:
    stages = set.intersection(*(set(r) for r in rounds))
    return {s: np.asarray([r[s] for r in rounds], dtype=np.float64) for s in sorted(stages)
            if all(len(r[s]) == len(rounds[0]["total"]) for r in rounds)}
