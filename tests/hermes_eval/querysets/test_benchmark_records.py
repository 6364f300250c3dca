"""Every benchmark record's variants import from the record's slice (tests/slices/): the command
`hermes-eval benchmark` derives from the record runs, finds queries, puts every gold span inside a file of
the corpus it names, and honours each option the variant sets. Nothing here reads the shared benchmark
folder, a mirror or the network: SWE-bench's repositories are rebuilt at each instance from the old side of
its golden patch, and the variants that download release wheels are not run (they say so: `network`).

Nothing here names a benchmark: what is particular to one (how its slice becomes a data folder and mirrors, what
each option it sets must show, how its selecting options narrow it) is in its slice's ``slice.py``
(tests/slices/cut.py lists what such a module holds)."""
from __future__ import annotations

import subprocess
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from types import ModuleType

import pytest

from hermes_eval.cli.benchmark import import_step
from hermes_eval.cli.main import main
from hermes_eval.config.benchmarks import Benchmark, Variant, benchmarks
from hermes_eval.config.compose import CONF_DIR
from hermes_eval.core.queryset import QuerySet
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.store import load_queryset
from tests.slices.cut import load_slice

ROOT = Path(__file__).resolve().parents[3]
RECORDS = benchmarks(CONF_DIR)
OFFLINE = [(b, v) for b in RECORDS.values() for v in b.variants if not v.network]


def _slice(record: Benchmark) -> ModuleType:
    """The record's slice module (tests/slices/SLICE/slice.py)."""
    return _slice_module(record.slice)


@lru_cache(maxsize=None)
def _slice_module(folder: str) -> ModuleType:
    return load_slice(ROOT / folder)


def _folders(record: Benchmark, tmp: Path, make_repo) -> tuple[Path, Path | None]:
    """(the data folder and mirrors folder the record's importer reads, made from its slice)."""
    build = getattr(_slice(record), "folders", None)
    return build(ROOT / record.slice, tmp, make_repo, record) if build else (ROOT / record.slice, None)


def test_every_option_a_record_sets_has_a_check_and_only_release_variants_need_the_network():
    used = {(b.slice, k) for b, v in OFFLINE for k, _ in v.options}
    checked = {(b.slice, k) for b in RECORDS.values() for k in getattr(_slice(b), "OPTION_CHECKS", {})}
    assert used - checked == set(), "add a check of these options to OPTION_CHECKS in the slice's slice.py"
    networked = [v.name for b in RECORDS.values() for v in b.variants if v.network]
    assert networked and all(dict(v.options).get("releases") == "true" for b in RECORDS.values()
                             for v in b.variants if v.network)
    assert all((ROOT / b.slice).is_dir() and any((ROOT / b.slice).iterdir()) for b in RECORDS.values())


@pytest.mark.parametrize("record,variant", OFFLINE, ids=[f"{b.name}:{v.name}" for b, v in OFFLINE])
def test_each_variant_imports_from_its_slice(record: Benchmark, variant: Variant, tmp_path, git_repo):
    data, mirrors = _folders(record, tmp_path, git_repo)
    paths = [f"paths.datasets={tmp_path / 'ds'}", f"paths.cache={tmp_path / 'cache'}"]
    step = import_step(record, variant, {"HERMES_MIRRORS": str(mirrors) if mirrors else None}, paths, data=str(data))
    assert step.words[:3] == ("datasets", "import", record.importer)
    assert main(list(step.words)) == 0
    qs = load_queryset(tmp_path / "ds" / variant.name)
    assert len(qs) > 0 and qs.name == variant.name
    subprocess.run(["git", "init", "-q", str(tmp_path / "ds")], check=True)  # the import leaves a checkout clean
    assert subprocess.run(["git", "-C", str(tmp_path / "ds"), "status", "--porcelain", "--untracked-files=all"],
                          check=True, capture_output=True, text=True).stdout == ""
    m = qs.manifest
    corpus = load_corpus(m["corpus_sources"], name=variant.name, cache_dir=str(tmp_path / "cache"),
                         exclude=tuple(m.get("corpus_exclude") or ()), languages=m.get("corpus_languages") or None)
    assert corpus.fingerprint == m["corpus_fingerprint"]  # the set names the corpus its sources load, no more
    lines = {f.path: f.n_lines for f in corpus.files}
    outside = [(q.qid, g) for q in qs.queries for g in q.gold
               if g.path not in lines or not 1 <= g.start <= g.end <= max(lines[g.path], 1)]
    assert outside == []
    for key, value in variant.options:
        assert _slice(record).OPTION_CHECKS[key](value.replace("{HERMES_MIRRORS}", str(mirrors)), qs, mirrors), \
            f"{variant.name}: option {key}={value} not honoured"


# options that select queries, each checked where it must remove some: the variant imported without the option,
# then with a value that keeps fewer than the slice holds; what is kept must be what the rule names (the slice's
# NARROWED, read by hand off its files, or its narrowed() applied to the whole set)
NARROWING = [(b, v, key) for b, v in OFFLINE for key in ("limit", "repos") if key in dict(v.options)]


def _import(record: Benchmark, variant: Variant, options: dict[str, str], tmp: Path, git_repo) -> QuerySet:
    tmp.mkdir(parents=True)
    data, mirrors = _folders(record, tmp, git_repo)
    narrowed = replace(variant, options=tuple(options.items()))
    paths = [f"paths.datasets={tmp / 'ds'}", f"paths.cache={tmp / 'cache'}"]
    step = import_step(record, narrowed, {"HERMES_MIRRORS": str(mirrors) if mirrors else None}, paths, data=str(data))
    assert main(list(step.words)) == 0
    return load_queryset(tmp / "ds" / variant.name)


@pytest.mark.parametrize("record,variant,key", NARROWING, ids=[f"{b.name}:{v.name}:{k}" for b, v, k in NARROWING])
def test_a_selecting_option_keeps_exactly_what_it_names(record: Benchmark, variant: Variant, key: str, tmp_path,
                                                         git_repo):
    module = _slice(record)
    others = {k: v for k, v in variant.options if k != key}
    every = {**others, **getattr(module, "WHOLE", {}).get(key, {})}
    whole = [(q.qid, q.repo) for q in _import(record, variant, every, tmp_path / "whole", git_repo).queries]
    if hasattr(module, "narrowed"):
        value, expected, removed = module.narrowed(variant.name, key, whole, ROOT / record.slice)
    else:
        (value, expected), removed = module.NARROWED[(variant.name, key)], None
    narrowed = _import(record, variant, {**others, key: value}, tmp_path / "kept", git_repo)
    kept = [q.qid for q in narrowed.queries]
    assert kept == expected
    if removed is not None:  # what the option removes, as the slice's narrowed() counts it
        assert removed(narrowed)
    else:
        assert set(kept) < {qid for qid, _ in whole}  # the option removed some of what the slice yields


def test_the_cutter_reads_each_slice_from_its_record_s_data_folder():
    from tests.slices.cut import sources

    got = sources({"BENCH_DATA": "/B", "HERMES_MIRRORS": "/M"})
    for b in RECORDS.values():
        assert got[Path(b.slice).name] == b.data.path.replace("{BENCH_DATA}", "/B").replace("{HERMES_MIRRORS}", "/M")
    cut = [f.name for f in sorted((ROOT / "tests" / "slices").iterdir()) if hasattr(load_slice(f), "cut")]
    assert cut and set(cut) <= set(got)  # every slice that is cut has a source (a record's, or its own SOURCE)


def test_the_files_every_benchmark_shares_name_none():
    """A new benchmark is its importer module, record and slice: the records test, the slice cutter and the
    importer registry name no record, slice or format, so none needs an edit for it."""
    import re

    from hermes_eval.querysets.importers.registry import IMPORTERS

    names = set(RECORDS) | set(IMPORTERS) | {Path(b.slice).name for b in RECORDS.values()}
    shared = [Path(__file__), ROOT / "tests" / "slices" / "cut.py",
              ROOT / "hermes_eval" / "querysets" / "importers" / "registry.py"]
    named = {f.name: sorted(n for n in names if re.search(rf"(?<![\w/-]){re.escape(n)}(?![\w-])", f.read_text()))
             for f in shared}
    assert named == {f.name: [] for f in shared}
