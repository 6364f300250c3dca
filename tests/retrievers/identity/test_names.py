"""Declared names: every preset's part has one, no two parts share one, a moved part keeps its name and
an old config still builds."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from retrievers.identity.declare import PartId, declare, declared
from retrievers.identity.names import buildable, declared_parts, name_of, named, target_of

ROOT = Path(__file__).resolve().parents[3]
PART_ROOTS = ("retrievers.", "hermes_eval.querysets.generators.")


def _conf_targets() -> set[str]:
    found: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("_target_"), str):
                found.add(node["_target_"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in (ROOT / "conf").rglob("*.yaml"):
        walk(yaml.safe_load(path.read_text()))
    return {t for t in found if t.startswith(PART_ROOTS)}


def test_every_part_a_preset_builds_declares_its_identity():
    targets = _conf_targets()
    assert len(targets) > 30  # the presets were found
    undeclared = sorted(t for t in targets if name_of(t) == t and not any(path == t for _, path in declared_parts()))
    assert not undeclared, f"add @declare(NAME) to: {undeclared}"


def test_no_two_parts_share_a_name():
    names = Counter(name for name, _ in declared_parts())
    assert len(names) > 40 and not [n for n, c in names.items() if c > 1]


def test_a_part_that_moved_keeps_the_name_its_runs_were_recorded_under():
    current = "retrievers.fusion.rrf.WeightedRRF"  # left retrievers/fusion.py for a package of its own
    assert name_of(current) == "retrievers.fusion.WeightedRRF"
    assert named({"fusion": {"_target_": current, "k": 60}}) == {"fusion": {"_target_": "retrievers.fusion.WeightedRRF",
                                                                             "k": 60}}
    assert target_of("retrievers.fusion.WeightedRRF") == current  # the old path builds the part today
    assert buildable([{"_target_": "retrievers.tokenize.CodeTokenizer"}]) == [
        {"_target_": "retrievers.sparse.tokenizer.CodeTokenizer"}]


def test_an_old_config_builds_through_its_recorded_name():
    from hermes_eval.config.parts import instantiate_part
    from retrievers.sparse.tokenizer import CodeTokenizer

    built = instantiate_part({"_target_": "retrievers.tokenize.CodeTokenizer", "name": "code"})
    assert isinstance(built, CodeTokenizer)


def test_a_subclass_that_declares_nothing_is_not_its_parent():
    @declare("tests.Parent", version=2)
    class Parent:
        pass

    class Child(Parent):
        pass

    assert declared(Parent) == PartId("tests.Parent", 2) and declared(Parent()) == PartId("tests.Parent", 2)
    assert declared(Child) is None and declared(Child()) is None


def test_unknown_targets_pass_through_unchanged():
    assert name_of("no.such.module.Thing") == "no.such.module.Thing"
    assert target_of("no.such.module.Thing") == "no.such.module.Thing"


def test_a_parts_name_read_from_its_source_is_the_one_it_declares():
    """``declared_in_source`` (no import) gives every declared part the name the import gives it."""
    from retrievers.identity.names import declared_in_source

    parts = declared_parts()
    assert len(parts) > 40
    for name, path in parts:
        module, _, attr = path.rpartition(".")
        assert declared_in_source(module).get(attr) == name, path


def test_naming_a_config_does_not_import_a_part_it_only_names():
    import subprocess
    import sys

    code = ("import sys; from retrievers.identity.names import name_of; "
            "print(name_of('retrievers.embedders.sentence_transformer.SentenceTransformerEmbedder'), "
            "'retrievers.embedders.sentence_transformer' in sys.modules, name_of('no.such.Part'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["retrievers.embedders.SentenceTransformerEmbedder", "False", "no.such.Part"]
