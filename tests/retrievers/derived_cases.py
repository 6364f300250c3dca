"""The embedders of conf/embedder this machine runs, as their presets build them (shared by the tests):
every preset whose model is a local folder here, the packaged MiniLM and the models derived from it
(ONNX fp32, ONNX int8, model2vec static: built once per session into the project's cache). The presets
that need a model hub (bge, e5, nomic) fail offline with one clear line: test_embedder_presets.py."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.parts import instantiate_part
from retrievers.embedders.model_source import resolve_model
from retrievers.kinds import KINDS

GROUP = KINDS["embedder"].conf_group


@lru_cache(maxsize=None)
def _preset(name: str) -> tuple[tuple[str, Any], ...]:
    from omegaconf import OmegaConf

    return tuple(OmegaConf.to_container(compose([f"{GROUP}={name}"])[GROUP], resolve=True).items())


def preset(name: str) -> dict[str, Any]:
    """conf/embedder/NAME.yaml as composed, interpolations resolved (a fresh dict)."""
    return dict(_preset(name))


PRESETS = tuple(sorted(p.stem for p in (CONF_DIR / GROUP).glob("*.yaml")))
# the presets this machine runs: their model is a local folder (no hub here)
LOCAL = tuple(p for p in PRESETS if Path(resolve_model(str(preset(p)["model"]))).is_dir())
# those that build their model here from the local one (into ``models_dir``)
DERIVED = tuple(p for p in LOCAL if "models_dir" in preset(p))


def make_embedder(name: str, models_dir: Path, cache_dir: str | None = None, **extra):
    """The embedder preset ``name`` builds, with its document cache in ``cache_dir`` (None: none) and its
    model built into ``models_dir``; ``extra`` overrides settings."""
    node = {**preset(name), "cache_dir": cache_dir, **extra}
    if "models_dir" in node:
        node["models_dir"] = str(models_dir)
    return instantiate_part(node)
