"""The ``benchmark`` and benchmark ``experiment`` configs, made from the records in conf/benchmarks/.

Each overlay of a record's variants becomes ``benchmark/NAME`` (``+benchmark=NAME``, package
``_global_``): the imported query set, its corpus and its chunker, as a hand-written overlay would
say it. Each experiment its sweeps name becomes ``experiment/NAME``: ``experiment_name`` and the
sweep's ``hydra.sweeper.params`` (``+benchmark`` over the overlays of every record that joins it,
in record order, then the sweep's own params). They are registered in Hydra's ConfigStore by
:func:`register`, which :func:`hermes_eval.config.compose.compose` calls before composing; a sweep's
jobs get the store with the rest of Hydra's state.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hermes_eval.config.benchmarks import (Benchmark, Overlay, Variant, benchmarks, expand, for_runs,
                                           sweeps_by_experiment)

PROVIDER = "hermes_eval.benchmarks"


def overlay_node(record: Benchmark, variant: Variant, overlay: Overlay) -> dict[str, Any]:
    """``benchmark/NAME``: the query set imported as ``variant``, chunked as ``overlay`` says."""
    defaults: list[dict[str, str]] = [{"override /queryset": "imported"}]
    if variant.corpus.imported:
        defaults.append({"override /corpus": "imported"})
    defaults.append({"override /chunker": overlay.chunker})
    node: dict[str, Any] = {"defaults": defaults, "queryset": {"name": variant.name}}
    if not variant.corpus.imported:
        values = for_runs(variant.name, record.data.path)
        corpus: dict[str, Any] = {"name": expand(variant.corpus.name or "{name}", values),
                                  "sources": [expand(s, values) for s in variant.corpus.sources]}
        if variant.corpus.languages:
            corpus["languages"] = list(variant.corpus.languages)
        node["corpus"] = corpus
    if overlay.dedupe:
        node["dedupe"] = True
    return node


def overlay_nodes(records: Mapping[str, Benchmark]) -> dict[str, dict[str, Any]]:
    """Every overlay of every record, by name."""
    return {o.name: overlay_node(b, v, o) for b in records.values() for v in b.variants for o in v.overlays}


def experiment_nodes(records: Mapping[str, Benchmark]) -> dict[str, dict[str, Any]]:
    """Every experiment the records' sweeps name, by name."""
    out = {}
    for exp, parts in sweeps_by_experiment(records).items():
        first = parts[0][1]
        params = {"+benchmark": ",".join(o for _, s in parts for o in s.overlays),
                  **{k: ",".join(v) for k, v in first.params}}
        out[exp] = {"experiment_name": first.experiment_name, "hydra": {"sweeper": {"params": params}}}
    return out


_REGISTERED: list[int] = []


def register(conf_dir: Path) -> None:
    """Put the overlays and experiments of ``conf_dir``'s records in Hydra's ConfigStore (again when a
    record changed)."""
    from hydra.core.config_store import ConfigStore

    records = benchmarks(conf_dir)
    if _REGISTERED and _REGISTERED[0] == id(records):
        return
    store = ConfigStore.instance()
    for group, nodes in (("benchmark", overlay_nodes(records)), ("experiment", experiment_nodes(records))):
        for name, node in nodes.items():
            store.store(group=group, name=name, node=node, package="_global_", provider=PROVIDER)
    _REGISTERED[:] = [id(records)]
