"""Re-cut the benchmark slices the tests read, each from its record's data folder (``conf/benchmarks/NAME.yaml``
``data.path``, its ``{BENCH_DATA}`` and ``{HERMES_MIRRORS}`` given here, else the environment's, else the defaults):

    .venv/bin/python tests/slices/cut.py [BENCH_DATA=DIR] [HERMES_MIRRORS=DIR] [SLICE ...]

A slice is a folder ``tests/slices/SLICE/`` holding real rows and files of a release, unchanged, only fewer of them,
its ``PROVENANCE.md``, and its ``slice.py``, which says everything about it that is code (nothing here or in the
tests names a benchmark):

- ``cut(source, out, locations)``: write the slice into ``out`` from ``source``, the data folder of the record whose
  ``slice`` is this folder (expanded), or the module's own ``SOURCE`` (for a slice no record names);
- ``folders(slice_dir, tmp, make_repo, record)``: the data folder (and mirrors folder, or None) the record's
  importer reads in the records test, built from the slice (absent: the slice itself, no mirrors);
- ``OPTION_CHECKS``: per importer option its records set, what the import must show for it
  (``tests/hermes_eval/querysets/test_benchmark_records.py``);
- ``NARROWED``: per (variant, selecting option), the value that keeps fewer queries and the ids it keeps
  (or ``narrowed(variant, key, whole, slice_dir)`` computing them).

Run it from anywhere; it writes next to itself and replaces only the slices it is asked for (every slice with a
``cut`` by default).
"""
from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MODULE = "slice.py"  # a slice's code, beside its data


def load_slice(folder: Path) -> ModuleType:
    """The slice's ``slice.py`` (an empty module when it has none), executed without writing bytecode beside it."""
    path = Path(folder) / MODULE
    module = ModuleType(f"slices.{Path(folder).name}")
    module.__file__ = str(path)
    if path.is_file():
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


def sources(locations: dict[str, str | None]) -> dict[str, str]:
    """Slice folder name -> the data folder it is cut from (the record's, else the slice module's SOURCE)."""
    sys.path.insert(0, str(ROOT))
    from hermes_eval.config.benchmarks import benchmarks, expand, for_import
    from hermes_eval.config.compose import CONF_DIR

    out = {}
    for folder in sorted(p for p in HERE.iterdir() if (p / MODULE).is_file()):
        source = getattr(load_slice(folder), "SOURCE", None)
        if source:
            out[folder.name] = expand(source, for_import(folder.name, "", locations))
    for record in benchmarks(CONF_DIR).values():
        name = Path(record.slice).name
        out[name] = expand(record.data.path, for_import(name, "", locations))
    return out


def main(argv: list[str]) -> None:
    if any(a.startswith("-") for a in argv):
        sys.exit(__doc__)
    sys.path.insert(0, str(ROOT))
    from hermes_eval.config.benchmarks import LOCATIONS, for_import

    given = dict(a.split("=", 1) for a in argv if "=" in a)
    unknown = sorted(set(given) - set(LOCATIONS))
    if unknown:
        sys.exit(f"cut.py: {unknown[0]}= is not a location; give {', '.join(f'{k}=DIR' for k in LOCATIONS)}")
    froms = sources(dict(given))
    cuttable = [n for n in froms if hasattr(load_slice(HERE / n), "cut")]
    names = [a for a in argv if "=" not in a] or cuttable
    for name in names:
        if name not in cuttable:
            sys.exit(f"cut.py: no slice {name!r} with a cut() in its {MODULE}; slices: {', '.join(cuttable)}")
        load_slice(HERE / name).cut(froms[name], HERE / name, for_import(name, "", given))
        print(f"{name}: {HERE / name} (from {froms[name]})")


if __name__ == "__main__":
    main(sys.argv[1:])
