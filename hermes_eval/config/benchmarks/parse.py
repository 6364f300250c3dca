"""A benchmark record validated from its YAML mapping: every error names the file and the field."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hermes_eval.config.benchmarks.field_measures import FIELD_MEASURES
from hermes_eval.config.benchmarks.fields import Fields
from hermes_eval.config.benchmarks.record import (BOARD_LIMIT_NAMES, Anchor, Benchmark, Corpus, Data, Overlay,
                                                  ReproductionEntry, Sweep, Variant)
from hermes_eval.core.errors import UserError


def option_word(value: Any) -> str:
    """An import option as the command line writes it (lists comma-separated, none, true/false)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _overlays(data: Any, variant: str, where: str) -> tuple[Overlay, ...]:
    if not isinstance(data, dict) or not data:
        raise UserError(f"{where}: field 'overlays' must map each +benchmark name to a chunker (or to "
                        f"{{chunker: NAME, dedupe: true}})")
    out = []
    for name, spec in data.items():
        if isinstance(spec, str):
            out.append(Overlay(str(name), variant, spec))
            continue
        f = Fields(spec, f"{where} overlays.{name}")
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
    f = Fields(data, where)
    options = dict(defaults) | dict(_options(f.get("options", dict, None), where))
    out = Variant(name, f.get("about", str, ""), f.words("paths"), tuple(options.items()),
                  Corpus.parse(f.get("corpus", (str, dict), corpus), f"{where} corpus"),
                  _overlays(f.get("overlays", dict), name, where), f.get("network", str, ""))
    f.done()
    return out


def _sweep(experiment: str, data: Any, where: str) -> Sweep:
    f = Fields(data, where)
    params = tuple((str(k), tuple(str(v) for v in (vs if isinstance(vs, list) else [vs])))
                   for k, vs in f.get("params", dict, {}).items())
    out = Sweep(experiment, f.words("overlays"), params,
                f.get("experiment_name", str, experiment), f.get("group", str, "main"), f.get("n_jobs", int, None))
    f.done()
    return out


def _board_limits(data: Any, where: str) -> tuple[tuple[str, int], ...]:
    """``board_limits``: a mapping of :data:`BOARD_LIMIT_NAMES` to positive integers."""
    if data is None:
        return ()
    f = Fields(data, where)
    out = tuple((k, f.get(k, int)) for k in BOARD_LIMIT_NAMES if k in data)
    f.done()
    bad = [(k, v) for k, v in out if v < 1]
    if bad:
        raise UserError(f"{where}: field {bad[0][0]!r} must be a positive integer, got {bad[0][1]!r}")
    return out


def _research_field(name: str, where: str) -> str:
    """``field``: one of :data:`FIELD_MEASURES` (or none)."""
    if name and name not in FIELD_MEASURES:
        raise UserError(f"{where}: field 'field' must be one of {', '.join(sorted(FIELD_MEASURES))} (its measures "
                        f"show on the board; add a field to config/benchmarks/field_measures.py), got {name!r}")
    return name


def _reproductions(data: Any, where: str) -> tuple[ReproductionEntry, ...]:
    """``reproductions:``: a list of names, or of {name: NAME, options: {key: value}} (hermes_eval/reproduce/)."""
    if not isinstance(data, list):
        raise UserError(f"{where}: field 'reproductions' must be a list of reproduction names (or of "
                        f"{{name: NAME, options: {{...}}}}), got {type(data).__name__}")
    out = []
    for i, item in enumerate(data):
        f = Fields({"name": item} if isinstance(item, str) else item, f"{where} reproductions[{i}]")
        name = f.get("name", str)
        if not name.isidentifier() or not name.islower():
            raise UserError(f"{where} reproductions[{i}]: field 'name' must be a registered reproduction's name "
                            f"(hermes_eval/reproduce/registry.py, e.g. blizzard_agreement), got {name!r}")
        out.append(ReproductionEntry(name, _options(f.get("options", dict, None), f"{where} reproductions[{i}]")))
        f.done()
    names = [r.name for r in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UserError(f"{where}: reproductions: {twice[0]} is named twice; keep one")
    return tuple(out)


def parse(data: Any, path: Path) -> Benchmark:
    """A record from its YAML mapping; every error names the file and the field."""
    where = str(path)
    f = Fields(data, where)
    imp = Fields(f.get("importer", dict), f"{where} importer")
    importer, defaults = imp.get("name"), _options(imp.get("options", dict, None), f"{where} importer")
    imp.done()
    d = Fields(f.get("data", dict), f"{where} data")
    data_ = Data(d.get("path"), d.get("source"), d.get("licence"), d.get("provenance"), d.get("mirrors", str, ""))
    d.done()
    corpus = f.get("corpus", (str, dict), "imported")
    variants = tuple(_variant(str(n), v, defaults, corpus, f"{where} variants.{n}")
                     for n, v in f.get("variants", dict).items())
    sweeps = tuple(_sweep(str(n), s, f"{where} sweeps.{n}") for n, s in f.get("sweeps", dict, {}).items())
    anchors = tuple(Anchor.parse(a, f"{where} anchors[{i}]") for i, a in enumerate(f.get("anchors", list, [])))
    record = Benchmark(f.get("name"), f.get("title"), importer, data_, variants, f.get("main_score"),
                       f.get("board"), f.words("columns"), f.get("slice"), sweeps, anchors,
                       _board_limits(f.get("board_limits", dict, None), f"{where} board_limits"), path,
                       _research_field(f.get("field", str, ""), where),
                       _reproductions(f.get("reproductions", list, []), where), f.words("board_sets"))
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
    for name in b.board_sets:
        if name in names or b.board_sets.count(name) > 1:
            raise UserError(f"{where} board_sets: {name!r} is {'a variant' if name in names else 'named twice'}; "
                            f"list a query set once, as a variant or in board_sets")
    for i, r in enumerate(b.reproductions):
        variant = dict(r.options).get("variant")
        if variant is not None and variant not in names:
            raise UserError(f"{where} reproductions[{i}]: option 'variant' {variant!r} is not a variant of this record "
                            f"({', '.join(sorted(names))})")
    for i, a in enumerate(b.anchors):
        stray = [q for q in a.querysets if q not in names]
        if stray:
            raise UserError(f"{where} anchors[{i}]: query set {stray[0]!r} is not a variant of this record")
        chunkers = sorted({o.chunker for v in b.variants if v.name in a.querysets for o in v.overlays})
        if a.chunker and a.chunker not in chunkers:  # the arm it names must be one this record can run
            raise UserError(f"{where} anchors[{i}]: chunker {a.chunker!r} chunks none of its query sets (their "
                            f"overlays': {', '.join(chunkers)}); name one of them")
