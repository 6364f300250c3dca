"""Time this tree, an A/A twin of it and the baseline tree in one run, interleaved block by block.

Three probe processes (``hermes_eval.gate.probe``) are started: ``head`` and ``twin`` run this
checkout, ``base`` the baseline ref's tree. Once all three have built their pipelines, every
arm's queries are cut into blocks, and for each round, arm and block the three processes time
that block one after another, in an order that cycles through all six permutations (so none is
systematically first, after a context switch, or last). Load that comes and goes hits all three
within one block; ``twin`` against ``head`` is the A/A noise of the same run.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from hermes_eval.gate.spec import PairedDesign

ROLES = ("head", "twin", "base")
ORDERS = list(itertools.permutations(range(len(ROLES))))


class ProbeError(RuntimeError):
    """A probe failed to start or to answer: the latency rules cannot be evaluated."""


@dataclass(frozen=True)
class Timings:
    """``ns[role][arm][stage]``: an array (rounds x queries) of nanoseconds."""

    ns: dict[str, dict[str, dict[str, np.ndarray]]]
    queries: int
    rounds: int


class Probe:
    def __init__(self, role: str, tree: Path, log: IO[bytes]):
        # one hash seed for all: set and dict orders (tokenizers, vocabularies) then match across processes
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
        self.role = role
        self.proc = subprocess.Popen([sys.executable, "-m", "hermes_eval.gate.probe"], cwd=tree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)

    def send(self, msg: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise ProbeError(f"the {self.role} probe exited (code {self.proc.wait()}) without answering")
        msg = json.loads(line)
        if "error" in msg:
            raise ProbeError(f"the {self.role} probe failed: {msg['error']}")
        return msg

    def close(self) -> None:
        try:
            self.send({"quit": True})
            self.proc.wait(timeout=30)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _tail(path: Path, n: int = 600) -> str:
    try:
        return " ".join(path.read_text(errors="replace")[-n:].split())
    except OSError:
        return ""


def measure_interleaved(trees: dict[str, Path], arms: dict[str, dict[str, list[str]]], queries: list[str],
                        design: PairedDesign) -> Timings:
    """Per role, arm and stage, ``design.rounds`` timings of every query (see the module doc);
    ``trees[role]`` is the source tree a role runs, ``arms[role][arm]`` its Hydra overrides."""
    if design.max_queries:
        queries = queries[: design.max_queries]
    blocks = [list(range(i, min(i + design.block, len(queries)))) for i in range(0, len(queries), design.block)]
    with tempfile.NamedTemporaryFile(prefix="hermes-gate-probes-", suffix=".log", delete=False) as log:
        log_path = Path(log.name)
        probes = [Probe(role, trees[role], log) for role in ROLES]
        try:
            for p in probes:  # they build in parallel; each answers once ready
                p.send({"protocol": 1, "arms": arms[p.role], "queries": queries, "warmup": design.warmup})
            for p in probes:
                p.receive()
            names = list(arms[ROLES[0]])
            raw: dict[str, dict[str, list]] = {r: {a: [] for a in names} for r in ROLES}
            turn = 0
            for _ in range(design.rounds):
                for arm in names:
                    parts = {r: [] for r in ROLES}
                    for block in blocks:
                        for i in ORDERS[turn % len(ORDERS)]:
                            probes[i].send({"arm": arm, "queries": block})
                            parts[ROLES[i]].append(probes[i].receive())
                        turn += 1
                    for r in ROLES:
                        raw[r][arm].append(_join(parts[r]))
        except ProbeError as exc:
            raise ProbeError(f"{exc} (probe log: {_tail(log_path)})") from None
        finally:
            for p in probes:
                p.close()
            log_path.unlink(missing_ok=True)
    ns = {r: {a: _stack(raw[r][a]) for a in names} for r in ROLES}
    return Timings(ns=ns, queries=len(queries), rounds=design.rounds)


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
