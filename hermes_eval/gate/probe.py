"""The latency probe: one process that builds a tree's pipelines and times queries on request.

The gate runs this file (its own checkout's copy, so the timing loop is the same instrument on
both sides) with the working directory and ``PYTHONPATH`` set to a source tree (this checkout, or
the baseline ref's tree). Building goes through that tree's own ``hermes_eval.gate.probe._build``,
so every line that prepares, builds and searches is that tree's code; the Python environment
(libraries) is the gate's. It speaks JSON lines (protocol ``PROTOCOL``):

- stdin, first line: ``{"protocol": 1, "arms": {id: [overrides]}, "queries": [text], "warmup": n}``;
  it composes and builds every arm (caches shared with the gate), searches ``warmup`` queries
  per arm untimed, then answers ``{"ready": true, "protocol": 1, "pid": ...}``;
- then ``{"arm": id, "queries": [index, ...]}`` -> ``{"total": [ns], "stages": {stage: [ns]}}``;
- ``{"quit": true}`` ends it. Any failure answers ``{"error": "one line"}`` and exits 1.

Protocol messages go to the original stdout; anything else printed goes to stderr.
"""
from __future__ import annotations

import gc
import json
import os
import sys
import time
from typing import IO, Any

PROTOCOL = 1


def _build(arms: dict[str, list[str]]) -> dict[str, tuple[Any, int]]:
    """Each arm's built pipeline and search depth, through this tree's own stages."""
    from hermes_eval.cache.content import Cache
    from hermes_eval.config.compose import compose
    from hermes_eval.config.settings import settings_from
    from hermes_eval.stages.build import build
    from hermes_eval.stages.prepare import prepare

    prepared: dict[str, Any] = {}
    out = {}
    for arm, overrides in arms.items():
        s = settings_from(compose(list(overrides)))
        key = json.dumps([repr(s.corpus), s.queryset.name, dict(s.chunker.node)], sort_keys=True, default=str)
        if key not in prepared:  # arms that differ only in retrieval share their corpus and chunks
            prepared[key] = prepare(s, Cache(s.paths.cache))
        p = prepared[key]
        overfetch = s.exclude_overfetch if any(q.exclude for q in p.queryset.queries) else 0
        pipeline = build(s, p.indexed, p.chunks, overfetch).pipeline
        out[arm] = (pipeline, int(s.depths["k"]) + overfetch)
    return out


def _tree_build() -> Any:
    """The build step of the tree on ``PYTHONPATH``: its own ``hermes_eval.gate.probe._build``.

    The gate runs this file (its own timing loop) in every probe, so the instrument is the same on
    both sides; only what is built, and so what is timed, comes from each tree."""
    try:
        from hermes_eval.gate import probe as tree_probe
    except ImportError:
        return _build
    return getattr(tree_probe, "_build", _build)


def _time(pipeline: Any, k: int, texts: list[str]) -> dict:
    """Each text searched once, timed in ns; the garbage collector runs between blocks, not inside."""
    gc.collect()
    gc.disable()
    total, stages = [], {}
    try:
        for text in texts:
            t = time.perf_counter_ns()
            res = pipeline.search(text, k)
            total.append(time.perf_counter_ns() - t)
            for stage, ns in res.timings_ns.items():
                stages.setdefault(stage, []).append(ns)
    finally:
        gc.enable()
    return {"total": total, "stages": stages}


def serve(inp: IO[str], out: IO[str]) -> int:
    def say(msg: dict) -> None:
        out.write(json.dumps(msg) + "\n")
        out.flush()

    try:
        hello = json.loads(inp.readline() or "{}")
        if hello.get("protocol") != PROTOCOL:
            say({"error": f"probe speaks protocol {PROTOCOL}, the gate sent {hello.get('protocol')!r}"})
            return 1
        queries: list[str] = hello["queries"]
        built = _tree_build()(hello["arms"])
        for pipeline, k in built.values():
            for text in queries[: int(hello.get("warmup", 0))]:
                pipeline.search(text, k)
        gc.collect()
        gc.freeze()  # what is built stays: the collection between blocks scans only what a search made
        say({"ready": True, "protocol": PROTOCOL, "pid": os.getpid()})
        for line in inp:
            msg = json.loads(line)
            if msg.get("quit"):
                return 0
            pipeline, k = built[msg["arm"]]
            say(_time(pipeline, k, [queries[i] for i in msg["queries"]]))
    except Exception as exc:  # noqa: BLE001 - the gate reports it as "could not evaluate"
        say({"error": " ".join(f"{type(exc).__name__}: {exc}".split())[:500]})
        return 1
    return 0


def main() -> int:
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # stray prints cannot break the protocol
    from hermes_eval.config.compose import offline_defaults

    offline_defaults()
    return serve(sys.stdin, out)


if __name__ == "__main__":
    sys.exit(main())
