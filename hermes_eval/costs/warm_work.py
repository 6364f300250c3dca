"""A small run's own work: the same whole-file BM25 run twice in one process, the second timed (its imports,
compiled patterns and loaded tokenizer already warm, its run and cache folders fresh): the part of a run no
import or start-up change can remove. ``python -m hermes_eval.costs.warm_work DATASETS NAME TMP`` prints
``{"warm_s": ...}``.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def overrides(name: str, datasets: Path, cache: Path, runs: Path) -> list[str]:
    """The small-set bench's run (the same for its cold and its warm process)."""
    return ["queryset=imported", f"queryset.name={name}", "corpus=imported", "retriever=bm25",
            "chunker=whole_file", f"paths.datasets={datasets}", f"paths.cache={cache}", f"paths.runs={runs}",
            "progress=off"]


def _once(words: list[str]) -> float:
    """Seconds of one run through the Python API (``hermes-eval run`` runs the same composition and job)."""
    from hermes_eval.api import run

    start = time.perf_counter()
    outcome = run(words)
    if outcome.status == "failed":
        raise RuntimeError(f"{' '.join(words[:2])}: {outcome.record.get('error')}")
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    datasets, name, tmp = Path(argv[0]), argv[1], Path(argv[2])
    _once(overrides(name, datasets, tmp / "warm-cache-0", tmp / "warm-runs-0"))
    warm = _once(overrides(name, datasets, tmp / "warm-cache-1", tmp / "warm-runs-1"))
    print(json.dumps({"warm_s": round(warm, 3)}))


if __name__ == "__main__":
    main(sys.argv[1:])
