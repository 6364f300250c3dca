"""A benchmark record's types (``conf/benchmarks/NAME.yaml``): the record, its data, variants, overlays,
sweeps and anchors."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_eval.config.benchmarks.field_measures import field_measures
from hermes_eval.config.benchmarks.fields import Fields
from hermes_eval.core.errors import UserError

AVERAGES = ("queries", "repos")
# the limits a record's ``board_limits`` may lower: report/options.py BoardLimits's fields (the report layer
# reads the records, so the names are declared here and a test keeps the two equal)
BOARD_LIMIT_NAMES = ("query_chars", "code_lines", "code_chars", "latency_digits")


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
    arm_reason: str = ""  # why ``system`` is the arm compared, where the board has a better one

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
        reason = data.get("arm_reason", "")
        if not isinstance(reason, str) or "arm_reason" in data and not reason.strip():
            raise UserError(f"{where}: field 'arm_reason' must be text saying why {data['system']} is the arm "
                            f"compared (or leave the field out), got {reason!r}")
        return cls(tuple(str(q) for q in qsets), str(data["published"]), str(data["metric"]), value,
                   str(data["system"]), str(data["source"]), data.get("chunker"), str(data.get("note") or ""), average,
                   " ".join(reason.split()))


@dataclass(frozen=True)
class ReproductionEntry:
    """A reproduction the record names (``reproductions:``): a name of hermes_eval/reproduce/registry.py and its
    ``key=value`` options (``variant``: one of the record's variants)."""

    name: str
    options: tuple[tuple[str, str], ...] = ()


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
        f = Fields(data, where)
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
    research_field: str = ""  # ``field:``, its field of research (FIELD_MEASURES): measures its board shows
    reproductions: tuple[ReproductionEntry, ...] = ()  # `hermes-eval benchmark NAME --reproduce` runs them
    # ``board_sets:``, query sets its importer makes from the command line that are not variants (e.g.
    # projects its slice lacks) and that its board ranks and shows as its variants' (main score, measures)
    board_sets: tuple[str, ...] = ()

    @property
    def ranked_sets(self) -> tuple[str, ...]:
        """Every query set its board ranks by its main score: its variants', then its board_sets."""
        return (*(v.name for v in self.variants), *self.board_sets)

    @property
    def shown(self) -> tuple[str, ...]:
        """The measures its markdown board shows: the main score, its field's measures, its columns."""
        return tuple(dict.fromkeys((self.main_score, *field_measures(self.research_field), *self.columns)))

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
