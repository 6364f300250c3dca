"""Config interpolations of our own (registered when ``hermes_eval.config`` is imported).

``${queryset_manifest:NAME,DATASETS,KEY}``: a field of an imported query set's manifest
(``DATASETS/NAME/manifest.json``), so ``corpus=imported`` indexes exactly the corpus the set was
imported on (its 137 SWE-bench snapshots, the files its protocol excludes) without listing them.
"""
from __future__ import annotations

import json
from pathlib import Path

from omegaconf import OmegaConf

from hermes_eval.core.errors import UserError

# fields a manifest may lack (sets imported before the field existed): their empty value
OPTIONAL = {"corpus_exclude": [], "corpus_languages": []}


def queryset_manifest(name: str, datasets: str, key: str):
    """``manifest[key]`` of the imported query set ``name``, or one line saying how to make it."""
    manifest = Path(str(datasets)) / str(name) / "manifest.json"
    if not manifest.is_file():
        raise UserError(f"corpus=imported needs the query set {name!r}, and {manifest} does not exist: "
                        f"import it first (README, Benchmarks)")
    data = json.loads(manifest.read_text())
    if key not in data and key not in OPTIONAL:
        raise UserError(f"{manifest}: no field {key!r}; re-import the query set {name!r}")
    value = data.get(key, OPTIONAL.get(key))
    if key == "corpus_sources" and not value:
        raise UserError(f"{manifest}: field corpus_sources is empty; re-import the query set {name!r}")
    return value


def register() -> None:
    if not OmegaConf.has_resolver("queryset_manifest"):
        OmegaConf.register_new_resolver("queryset_manifest", queryset_manifest)
