"""The records in ``conf/benchmarks``, read from their files (again when a file changes)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from hermes_eval.config.benchmarks.parse import parse
from hermes_eval.config.benchmarks.record import Benchmark
from hermes_eval.core.errors import UserError

RECORDS = "benchmarks"  # the records' folder under conf/ (hermes_eval.config.compose.CONF_DIR)


def load(path: Path) -> Benchmark:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: cannot read the benchmark record ({type(exc).__name__}): check the file") from None
    return parse(data, Path(path))


@lru_cache(maxsize=4)
def _records(folder: Path, stamp: tuple) -> dict[str, Benchmark]:
    out = {p.stem: load(p) for p in sorted(folder.glob("*.yaml"))}
    overlays: dict[str, str] = {}
    for b in out.values():
        for o in b.overlays:
            if o in overlays:
                raise UserError(f"{b.path}: overlay {o} is also in {overlays[o]}.yaml: give it another name")
            overlays[o] = b.name
    return out


def benchmarks(conf_dir: Path) -> dict[str, Benchmark]:
    """Every record in ``conf_dir``/benchmarks, by name (in file-name order), read again when a file changes."""
    folder = Path(conf_dir) / RECORDS
    stamp = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(folder.glob("*.yaml")))
    return _records(folder, stamp)


def benchmark(name: str, conf_dir: Path) -> Benchmark:
    """The record called ``name``, or a one-line error listing them."""
    records = benchmarks(conf_dir)
    if name not in records:
        raise UserError(f"no benchmark {name!r} (conf/benchmarks/{name}.yaml); known: {', '.join(records) or 'none'}")
    return records[name]
