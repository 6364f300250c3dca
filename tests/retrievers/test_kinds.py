"""One declared interface per plugin kind (retrievers/kinds.py): every conf/ preset of a kind builds
an object with every member of that kind's protocol, and the pipeline is typed with the protocols."""
from __future__ import annotations

import functools
import typing

import pytest

from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.parts import instantiate_part
from retrievers.kinds import KINDS, missing_members
from retrievers.pipeline import Pipeline


def presets(group: str) -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))


@functools.lru_cache(maxsize=None)
def parts(kind: str, preset: str) -> tuple[typing.Any, ...]:
    """The objects of ``kind`` a preset builds (a retriever preset builds up to two index legs). Built once
    per preset for the three tests below, which only read the parts' types and members (building is
    deterministic in the composed preset, and nothing here mutates a part)."""
    group, slots = KINDS[kind].conf_group, KINDS[kind].conf_slots
    node = compose([f"{group}={preset}"])[group]
    nodes = [node.get(slot) for slot in slots] if slots else [node]
    return tuple(instantiate_part(n) for n in nodes if n is not None and n.get("_target_"))


CASES = [(kind, p) for kind, k in KINDS.items() for p in presets(k.conf_group)]


@pytest.mark.parametrize("kind,preset", CASES)
def test_every_preset_builds_its_kind(kind, preset):
    for part in parts(kind, preset):
        assert missing_members(part, KINDS[kind].protocol) == [], f"conf/{KINDS[kind].conf_group}/{preset}.yaml"
        assert type(part).__module__.startswith(tuple(f"{p}." for p in KINDS[kind].packages)), type(part)


def test_each_kind_has_presets():
    built = {kind for kind, p in CASES if parts(kind, p)}
    assert built == set(KINDS)


def test_every_package_a_kind_names_has_a_part_some_preset_builds():
    """A kind's packages are where its implementations are (the index kind's: sparse and dense)."""
    for kind, k in KINDS.items():
        modules = {type(part).__module__ for p in presets(k.conf_group) for part in parts(kind, p)}
        for package in k.packages:
            assert any(m.startswith(f"{package}.") for m in modules), (kind, package)


def test_the_pipeline_is_typed_with_the_protocols():
    hints = typing.get_type_hints(Pipeline)
    mentioned = {a for h in hints.values() for a in (typing.get_args(h) or (h,))}
    mentioned |= {a for h in hints.values() for arg in typing.get_args(h) for a in typing.get_args(arg)}
    for kind in ("index", "embedder", "fusion", "reranker", "expander"):
        assert KINDS[kind].protocol in mentioned, kind
