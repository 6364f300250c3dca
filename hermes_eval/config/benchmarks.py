"""Benchmark records: one declarative file per published benchmark, ``conf/benchmarks/NAME.yaml``.

A record says where the data comes from (a folder under the ``BENCH_DATA`` option, its source,
licence and provenance; SWE-bench also reads git mirrors under ``HERMES_MIRRORS``), which importer
reads it and with which options, its protocol variants (each one query set: the import's paths and
options, the corpus its runs index, and its overlays: ``+benchmark=NAME``, how it is chunked and
judged), the main score, the sweeps that run its arms, the board it belongs to (with the extra
columns it shows and, optionally, less query text and gold code kept for it: ``board_limits``) and the
published numbers set beside ours there (anchors), and its test slice.

Everything else is derived from the records: the ``benchmark`` and benchmark ``experiment`` configs
(:mod:`hermes_eval.config.benchmark_overlays`), ``hermes-eval benchmark NAME`` and the
``datasets import`` usage, and the anchors of ``leaderboard --anchors BOARD``.

Strings may name ``{data}`` (the record's data folder), ``{name}`` (the variant's query set) and the
locations ``{BENCH_DATA}`` and ``{HERMES_MIRRORS}``: an import reads the folders given (option,
environment, default); an overlay keeps them as ``${oc.env:VAR,DEFAULT}`` for the run to resolve.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import yaml

from hermes_eval.core.errors import UserError

RECORDS = "benchmarks"  # the records' folder under conf/ (hermes_eval.config.compose.CONF_DIR)


@dataclass(frozen=True)
class Location:
    """A folder the user chooses: a make variable and a ``hermes-eval benchmark`` option, which runs read
    from the environment variable ``env`` (``default`` when it is unset)."""

    env: str
    default: str
    help: str

    def interpolation(self) -> str:
        return "${oc.env:%s,%s}" % (self.env, self.default)

    def value(self, given: str | None = None) -> str:
        return given or os.environ.get(self.env) or self.default


LOCATIONS: dict[str, Location] = {
    "BENCH_DATA": Location("HERMES_BENCH_DATA", "../shared/benchmarks",
                           "the benchmark data folder (its README gives every file's provenance and licence)"),
    "HERMES_MIRRORS": Location("HERMES_MIRRORS", ".cache/mirrors",
                               "the folder of git mirrors, OWNER+NAME/repo (SWE-bench)"),
}
_PLACEHOLDER = re.compile(r"\{(data|name|%s)\}" % "|".join(LOCATIONS))
AVERAGES = ("queries", "repos")


def expand(text: str, values: Mapping[str, str]) -> str:
    """``text`` with its placeholders replaced (``{data}`` first expanded itself)."""
    return _PLACEHOLDER.sub(lambda m: expand(values[m.group(1)], values) if m.group(1) == "data"
                            else values[m.group(1)], text)


def for_runs(name: str, data: str) -> dict[str, str]:
    """Placeholder values as an overlay writes them: the locations as environment interpolations."""
    return {"name": name, "data": data, **{k: loc.interpolation() for k, loc in LOCATIONS.items()}}


def for_import(name: str, data: str, given: Mapping[str, str | None]) -> dict[str, str]:
    """Placeholder values for an import: the folders given, else the environment's, else the defaults."""
    return {"name": name, "data": data, **{k: loc.value(given.get(k)) for k, loc in LOCATIONS.items()}}


class _Fields:
    """A record's mapping read field by field; unknown fields and wrong types are one-line errors."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise UserError(f"{where}: expected a mapping, got {type(data).__name__}")
        self.data, self.where, self.read = data, where, set()

    def get(self, key: str, kind: type | tuple = str, default: Any = ...) -> Any:
        self.read.add(key)
        if key not in self.data or self.data[key] is None:
            if default is ...:
                raise UserError(f"{self.where}: field {key!r} is missing: add it")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind in (int, float, (int, float)):
            raise UserError(f"{self.where}: field {key!r} must be {_kind(kind)}, got {value!r}")
        return value

    def words(self, key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        value = self.get(key, (list, str), list(default))
        return (value,) if isinstance(value, str) else tuple(str(v) for v in value)

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            raise UserError(f"{self.where}: unknown field {unknown[0]!r}; fields: {', '.join(sorted(self.read))}")


def _kind(kind: type | tuple) -> str:
    names = {str: "text", int: "an integer", float: "a number", bool: "true or false", list: "a list",
             dict: "a mapping"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def option_word(value: Any) -> str:
    """An import option as the command line writes it (lists comma-separated, none, true/false)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Anchor:
    """A published number set beside one of our arms on a board."""

    querysets: tuple[str, ...]  # boards it goes on
    published: str  # who reports it, for which system (paper, table, column)
    metric: str  # our metric name it is set against (e.g. ndcg@10)
    value: float
    system: str  # our arm's label (e.g. exact, mteb_bm25)
    source: str
    chunker: str | None = None  # our arm's chunker, when it matters
    note: str = ""
    average: str = "queries"  # how the published value averages: over queries, or "repos" (mean of
    # the per-repository means, as CodeRAG-Bench reports RepoEval); ours is then averaged the same way

    @classmethod
    def parse(cls, data: Any, where: str) -> "Anchor":
        if not isinstance(data, dict):
            raise UserError(f"{where}: expected a mapping with querysets, published, metric, value, system, source")
        missing = [k for k in ("querysets", "published", "metric", "value", "system", "source") if k not in data]
        if missing:
            raise UserError(f"{where}: field {missing[0]!r} is missing: add it")
        try:
            value = float(data["value"])
        except (TypeError, ValueError):
            raise UserError(f"{where}: field 'value' must be a number, got {data['value']!r}") from None
        qsets = data["querysets"] if isinstance(data["querysets"], list) else [data["querysets"]]
        average = str(data.get("average") or "queries")
        if average not in AVERAGES:
            raise UserError(f"{where}: field 'average' must be one of {', '.join(AVERAGES)}, got {average!r}")
        unknown = sorted(set(data) - {f for f in cls.__dataclass_fields__})
        if unknown:
            raise UserError(f"{where}: unknown field {unknown[0]!r}")
        return cls(tuple(str(q) for q in qsets), str(data["published"]), str(data["metric"]), value,
                   str(data["system"]), str(data["source"]), data.get("chunker"), str(data.get("note") or ""), average)


@dataclass(frozen=True)
class Corpus:
    """What a variant's runs index: ``imported`` (the corpus its manifest names) or these sources."""

    name: str | None = None  # None: corpus=imported
    sources: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()

    @property
    def imported(self) -> bool:
        return self.name is None

    @classmethod
    def parse(cls, data: Any, where: str) -> "Corpus":
        if data == "imported":
            return cls()
        f = _Fields(data, where)
        out = cls(f.get("name", str, "{name}"), f.words("sources"), f.words("languages"))
        f.done()
        if not out.sources:
            raise UserError(f"{where}: field 'sources' is empty: name the corpus folders (or write corpus: imported)")
        return out


@dataclass(frozen=True)
class Overlay:
    """One ``+benchmark=NAME`` config: a variant's query set, chunked (and deduplicated) one way."""

    name: str
    variant: str
    chunker: str
    dedupe: bool = False


@dataclass(frozen=True)
class Variant:
    """One protocol variant: one query set, imported with these paths and options."""

    name: str  # the query set (datasets/NAME)
    about: str
    paths: tuple[str, ...]  # the importer's positional paths
    options: tuple[tuple[str, str], ...]  # its key=value options, as command-line words
    corpus: Corpus
    overlays: tuple[Overlay, ...]
    network: str = ""  # what the import downloads (empty: it reads only the data folder and the mirrors)


@dataclass(frozen=True)
class Sweep:
    """One experiment (``experiment=NAME``) over some overlays: a Hydra sweep of ``params`` per overlay."""

    experiment: str
    overlays: tuple[str, ...]
    params: tuple[tuple[str, tuple[str, ...]], ...]  # e.g. (("retriever", ("bm25", "dense")),)
    experiment_name: str
    group: str = "main"  # `hermes-eval benchmark --group`: main runs by default
    n_jobs: int | None = None  # hydra.launcher.n_jobs (1: arms one at a time)


@dataclass(frozen=True)
class Data:
    """Where the benchmark's files come from."""

    path: str  # e.g. {BENCH_DATA}/cosqa
    source: str
    licence: str
    provenance: str  # where the copy is described (file and section)
    mirrors: str = ""  # how the git mirrors are made, when the importer reads repositories


@dataclass(frozen=True)
class Benchmark:
    """One benchmark record (``conf/benchmarks/NAME.yaml``)."""

    name: str
    title: str
    importer: str
    data: Data
    variants: tuple[Variant, ...]
    main_score: str
    board: str  # the board's folder, e.g. reports/benchmarks/swebench
    columns: tuple[str, ...]  # metric columns its board shows beside the main ones
    slice: str  # the test slice: the data folder's layout, a few real rows
    sweeps: tuple[Sweep, ...]
    anchors: tuple[Anchor, ...]
    board_limits: tuple[tuple[str, int], ...] = ()  # (limit, value) its board keeps (report/options.py BoardLimits)
    path: Path = field(default=Path(), compare=False)

    @property
    def board_name(self) -> str:
        return Path(self.board).name

    @property
    def runs(self) -> str:
        return f"runs/{self.board_name}"

    @property
    def overlays(self) -> dict[str, Overlay]:
        return {o.name: o for v in self.variants for o in v.overlays}

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise UserError(f"benchmark {self.name}: no variant {name!r}; its variants: "
                        f"{', '.join(v.name for v in self.variants)}")


def _overlays(data: Any, variant: str, where: str) -> tuple[Overlay, ...]:
    if not isinstance(data, dict) or not data:
        raise UserError(f"{where}: field 'overlays' must map each +benchmark name to a chunker (or to "
                        f"{{chunker: NAME, dedupe: true}})")
    out = []
    for name, spec in data.items():
        if isinstance(spec, str):
            out.append(Overlay(str(name), variant, spec))
            continue
        f = _Fields(spec, f"{where} overlays.{name}")
        out.append(Overlay(str(name), variant, f.get("chunker"), f.get("dedupe", bool, False)))
        f.done()
    return tuple(out)


def _options(data: Any, where: str) -> tuple[tuple[str, str], ...]:
    if data is None:
        return ()
    if not isinstance(data, dict):
        raise UserError(f"{where}: field 'options' must be a mapping of the importer's options")
    return tuple((str(k), option_word(v)) for k, v in data.items())


def _variant(name: str, data: Any, defaults: tuple[tuple[str, str], ...], corpus: Any, where: str) -> Variant:
    f = _Fields(data, where)
    options = dict(defaults) | dict(_options(f.get("options", dict, None), where))
    out = Variant(name, f.get("about", str, ""), f.words("paths"), tuple(options.items()),
                  Corpus.parse(f.get("corpus", (str, dict), corpus), f"{where} corpus"),
                  _overlays(f.get("overlays", dict), name, where), f.get("network", str, ""))
    f.done()
    return out


def _sweep(experiment: str, data: Any, where: str) -> Sweep:
    f = _Fields(data, where)
    params = tuple((str(k), tuple(str(v) for v in (vs if isinstance(vs, list) else [vs])))
                   for k, vs in f.get("params", dict, {}).items())
    out = Sweep(experiment, f.words("overlays"), params,
                f.get("experiment_name", str, experiment), f.get("group", str, "main"), f.get("n_jobs", int, None))
    f.done()
    return out


# the limits a record's ``board_limits`` may lower: report/options.py BoardLimits's fields (the report layer
# reads the records, so the names are declared here and a test keeps the two equal)
BOARD_LIMIT_NAMES = ("query_chars", "code_lines", "code_chars")


def _board_limits(data: Any, where: str) -> tuple[tuple[str, int], ...]:
    """``board_limits``: a mapping of :data:`BOARD_LIMIT_NAMES` to positive integers."""
    if data is None:
        return ()
    f = _Fields(data, where)
    out = tuple((k, f.get(k, int)) for k in BOARD_LIMIT_NAMES if k in data)
    f.done()
    bad = [(k, v) for k, v in out if v < 1]
    if bad:
        raise UserError(f"{where}: field {bad[0][0]!r} must be a positive integer, got {bad[0][1]!r}")
    return out


def parse(data: Any, path: Path) -> Benchmark:
    """A record from its YAML mapping; every error names the file and the field."""
    where = str(path)
    f = _Fields(data, where)
    imp = _Fields(f.get("importer", dict), f"{where} importer")
    importer, defaults = imp.get("name"), _options(imp.get("options", dict, None), f"{where} importer")
    imp.done()
    d = _Fields(f.get("data", dict), f"{where} data")
    data_ = Data(d.get("path"), d.get("source"), d.get("licence"), d.get("provenance"), d.get("mirrors", str, ""))
    d.done()
    corpus = f.get("corpus", (str, dict), "imported")
    variants = tuple(_variant(str(n), v, defaults, corpus, f"{where} variants.{n}")
                     for n, v in f.get("variants", dict).items())
    sweeps = tuple(_sweep(str(n), s, f"{where} sweeps.{n}") for n, s in f.get("sweeps", dict, {}).items())
    anchors = tuple(Anchor.parse(a, f"{where} anchors[{i}]") for i, a in enumerate(f.get("anchors", list, [])))
    record = Benchmark(f.get("name"), f.get("title"), importer, data_, variants, f.get("main_score"),
                       f.get("board"), f.words("columns"), f.get("slice"), sweeps, anchors,
                       _board_limits(f.get("board_limits", dict, None), f"{where} board_limits"), path)
    f.done()
    _check(record)
    return record


def _check(b: Benchmark) -> None:
    where = str(b.path)
    if b.name != b.path.stem:
        raise UserError(f"{where}: name {b.name!r} differs from the file's name; name it {b.path.stem}")
    overlays = [o.name for v in b.variants for o in v.overlays]
    twice = sorted({o for o in overlays if overlays.count(o) > 1})
    if twice:
        raise UserError(f"{where}: overlay {twice[0]} is named twice")
    for s in b.sweeps:
        unknown = [o for o in s.overlays if o not in overlays]
        if unknown:
            raise UserError(f"{where} sweeps.{s.experiment}: overlay {unknown[0]!r} is not one of the record's "
                            f"({', '.join(overlays)})")
    names = {v.name for v in b.variants}
    for i, a in enumerate(b.anchors):
        stray = [q for q in a.querysets if q not in names]
        if stray:
            raise UserError(f"{where} anchors[{i}]: query set {stray[0]!r} is not a variant of this record")


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


@dataclass(frozen=True)
class Board:
    """The records that share a board folder: its runs folder, extra columns and anchors."""

    name: str
    out: str
    records: tuple[Benchmark, ...]

    @property
    def runs(self) -> str:
        return f"runs/{self.name}"

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for b in self.records for c in b.columns))

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        return tuple(a for b in self.records for a in b.anchors)

    @property
    def limits(self) -> dict[str, int]:
        """What the board keeps of query text and gold code where its records ask for less than the
        defaults: per limit, the smallest any record gives (a record cannot make another's board larger)."""
        out: dict[str, int] = {}
        for b in self.records:
            for k, v in b.board_limits:
                out[k] = min(v, out.get(k, v))
        return out

    @property
    def main_scores(self) -> tuple[tuple[str, str], ...]:
        """(query set, its record's main score) for every variant on the board: what ranks its table."""
        return tuple((v.name, b.main_score) for b in self.records for v in b.variants)


def boards(conf_dir: Path) -> dict[str, Board]:
    """Boards by name (the last part of their folder), their records in file-name order."""
    out: dict[str, list[Benchmark]] = {}
    for b in benchmarks(conf_dir).values():
        out.setdefault(b.board_name, []).append(b)
    for name, records in out.items():
        folders = sorted({b.board for b in records})
        if len(folders) > 1:
            raise UserError(f"boards {' and '.join(folders)} share the name {name!r}: rename one folder")
    return {n: Board(n, rs[0].board, tuple(rs)) for n, rs in out.items()}


def sweeps_by_experiment(records: Mapping[str, Benchmark]) -> dict[str, tuple[tuple[Benchmark, Sweep], ...]]:
    """Each experiment with the records' sweeps that make it, in record order; they must agree on
    everything but their overlays (one Hydra sweep is one product of its params)."""
    out: dict[str, list[tuple[Benchmark, Sweep]]] = {}
    for b in records.values():
        for s in b.sweeps:
            out.setdefault(s.experiment, []).append((b, s))
    same: Callable[[Benchmark, Sweep], tuple] = lambda b, s: (s.params, s.experiment_name, s.group, s.n_jobs,
                                                              b.board)  # noqa: E731
    for exp, parts in out.items():
        first_b, first = parts[0]
        for b, s in parts[1:]:
            if same(b, s) != same(first_b, first):
                raise UserError(f"{b.path} sweeps.{exp}: its params, experiment_name, group, n_jobs and board must "
                                f"be those of {first_b.path}'s (one experiment is one sweep onto one board)")
    return {k: tuple(v) for k, v in out.items()}
