"""The kinds table with the harness's own kinds (hermes_eval/querysets/kinds.py): retrievers' parts and
the two kinds that make query sets, each with its protocol and package; every query-set preset's
generator and every importer module satisfies its kind's protocol."""
from __future__ import annotations

import importlib
import pkgutil
import typing

import pytest

from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.parts import instantiate_part
from hermes_eval.querysets.importers.base import ImportOptions
from hermes_eval.querysets.kinds import KINDS, QUERYSET_KINDS
from retrievers.kinds import KINDS as PART_KINDS
from retrievers.kinds import missing_members

GENERATOR, IMPORTER = QUERYSET_KINDS["generator"], QUERYSET_KINDS["importer"]


def test_the_table_is_retrievers_kinds_and_the_query_set_kinds():
    assert KINDS == {**PART_KINDS, **QUERYSET_KINDS} and not set(PART_KINDS) & set(QUERYSET_KINDS)
    assert set(QUERYSET_KINDS) == {"generator", "importer"}
    for kind in KINDS.values():
        assert getattr(kind.protocol, "_is_protocol", False), kind.name
        for package in kind.packages:
            assert importlib.import_module(package).__path__, (kind.name, package)
        assert kind.conf_group is None or (CONF_DIR / kind.conf_group).is_dir(), kind.name


def generator_presets() -> list[str]:
    (slot,) = GENERATOR.conf_slots
    presets = sorted(p.stem for p in (CONF_DIR / GENERATOR.conf_group).glob("*.yaml"))
    return [p for p in presets if (compose([f"{GENERATOR.conf_group}={p}"])[GENERATOR.conf_group].get(slot) or {})
            .get("_target_")]


GENERATOR_PRESETS = generator_presets()


def test_most_query_set_presets_have_a_generator():
    assert len(GENERATOR_PRESETS) >= 10 and "docstring" in GENERATOR_PRESETS


@pytest.mark.parametrize("preset", GENERATOR_PRESETS)
def test_every_generator_preset_builds_the_generator_kind(preset):
    (slot,) = GENERATOR.conf_slots
    gen = instantiate_part(compose([f"{GENERATOR.conf_group}={preset}"])[GENERATOR.conf_group][slot])
    assert isinstance(gen, GENERATOR.protocol) and missing_members(gen, GENERATOR.protocol) == []
    assert type(gen).__module__.startswith(tuple(f"{p}." for p in GENERATOR.packages)), type(gen)


def importer_modules() -> list[str]:
    """The modules of the importer package that define an importer's ``run``."""
    (package,) = IMPORTER.packages
    names = [f"{package}.{m.name}" for m in pkgutil.iter_modules(importlib.import_module(package).__path__)]
    return sorted(n for n in names if callable(getattr(importlib.import_module(n), "run", None)))


def test_the_importer_kind_has_its_benchmarks():
    assert {n.rsplit(".", 1)[1] for n in importer_modules()} >= {"beir", "cosqa", "mteb", "repoeval", "swebench"}


@pytest.mark.parametrize("module", importer_modules())
def test_every_importer_satisfies_the_importer_kind(module):
    mod = importlib.import_module(module)
    assert missing_members(mod, IMPORTER.protocol) == []
    assert issubclass(mod.Options, ImportOptions)
    hints = typing.get_type_hints(IMPORTER.protocol)
    assert issubclass(mod.Options, typing.get_args(hints["Options"])[0])
