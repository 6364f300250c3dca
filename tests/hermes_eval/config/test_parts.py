"""instantiate_part builds, for every preset leg, fusion, chunker and expander node, what Hydra's own
``instantiate(_convert_="all")`` builds: the same classes with the same attributes, all the way down;
a node with Hydra's special keys still goes through Hydra."""
from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from hermes_eval.config.parts import META_KEYS, instantiate_part
from retrievers.identity.names import buildable

CONF = Path(__file__).resolve().parents[3] / "conf"
LEG_KEYS = ("sparse", "dense", "legs")


def _nodes():
    for group in ("retriever", "fusion", "chunker", "expander"):
        for path in sorted((CONF / group).glob("*.yaml")):
            data = OmegaConf.to_container(OmegaConf.load(path), resolve=False)
            if not isinstance(data, dict) or "defaults" in data:
                continue
            nodes = [data] if "_target_" in data else [v for k, v in data.items()
                                                        if isinstance(v, dict) and "_target_" in v]
            for i, node in enumerate(nodes):
                if "${" not in repr(node) and "embedder" not in repr(node).lower():
                    yield pytest.param(node, id=f"{group}/{path.stem}/{i}")


def _state(obj, depth=0):
    """An object as comparable data: its class and attributes, nested objects likewise."""
    if isinstance(obj, (str, int, float, bool, type(None))):
        return obj
    if isinstance(obj, (list, tuple)):
        return [type(obj).__name__, *[_state(v, depth + 1) for v in obj]]
    if isinstance(obj, dict):
        return {k: _state(v, depth + 1) for k, v in obj.items()}
    attrs = getattr(obj, "__dict__", None)
    if attrs is None or depth > 6:
        return type(obj).__qualname__
    return [type(obj).__module__ + "." + type(obj).__qualname__,
            {k: _state(v, depth + 1) for k, v in sorted(attrs.items()) if not callable(v) or isinstance(v, type)}]


PARAMS = list(_nodes())


def test_the_presets_are_many():
    assert len(PARAMS) >= 30


@pytest.mark.parametrize("node", PARAMS)
def test_instantiate_part_builds_what_hydra_builds(node):
    from hydra.utils import instantiate

    data = buildable(dict(node))
    for key in META_KEYS:
        data.pop(key, None)
    assert _state(instantiate_part(node)) == _state(instantiate(data, _convert_="all"))


def test_a_partial_node_goes_through_hydra():
    got = instantiate_part({"_target_": "retrievers.chunkers.lines.LineChunker", "_partial_": True, "size": 7, "overlap": 2})
    assert callable(got) and got().size == 7
