"""Config targets whose module moved (issue 25's one room per kind), old module -> new module.

A move changes no measurement, so what names a run must not change with it:

- :func:`as_recorded` maps every ``_target_`` back to the module it had when the run was first
  named; the config hash is computed over that form, so runs, sweep resume, gate baselines and
  committed boards keep their hashes, and the sameness tool compares recorded configs through it.
- :func:`as_current` maps a target written with an old module (a user's own config, a stored
  query set's manifest) to its new module, so such a config still builds.

Only parts a config instantiates are listed: a class moved together with its module, so an old
target is ``OLD_MODULE.Name`` and its new one ``NEW_MODULE.Name``.
"""
from __future__ import annotations

from typing import Any

Q = "hermes_eval.querysets"
MOVED: dict[str, str] = {
    # query generators (conf/queryset/*.yaml, manifests of generated sets)
    f"{Q}.docstrings": f"{Q}.generators.docstrings",
    f"{Q}.comments": f"{Q}.generators.comments",
    f"{Q}.symbols": f"{Q}.generators.symbols",
    f"{Q}.doc_comments": f"{Q}.generators.doc_comments",
    f"{Q}.markdown_sections": f"{Q}.generators.markdown_sections",
    f"{Q}.combined": f"{Q}.generators.combined",
    f"{Q}.tasks": f"{Q}.generators.completion",
    f"{Q}.repoeval": f"{Q}.generators.repoeval",
    f"{Q}.repoeval_polyglot": f"{Q}.generators.repoeval_polyglot",
    f"{Q}.protocols": f"{Q}.generators.published_protocols",
    # parts under test (conf/embedder, fusion, expander, retriever, reranker)
    "retrievers.embedders": "retrievers.embedders.sentence_transformer",
    "retrievers.embedders_onnx": "retrievers.embedders.onnx_runtime",
    "retrievers.embedders_static": "retrievers.embedders.static",
    "retrievers.fusion": "retrievers.fusion.rrf",
    "retrievers.fusion_ranx": "retrievers.fusion.ranx_methods",
    "retrievers.query_expansion": "retrievers.expanders.llm",
    "retrievers.http_service": "retrievers.remote.search_service",
    "retrievers.llm_client": "retrievers.remote.chat_client",
    "retrievers.tokenize": "retrievers.sparse.tokenizer",
}
_BACK = {new: old for old, new in MOVED.items()}


def _split(target: str) -> tuple[str, str]:
    module, _, name = target.rpartition(".")
    return module, name


def recorded_target(target: str) -> str:
    """``retrievers.fusion.rrf.WeightedRRF`` -> ``retrievers.fusion.WeightedRRF``; others unchanged."""
    module, name = _split(target)
    return f"{_BACK[module]}.{name}" if module in _BACK else target


def current_target(target: str) -> str:
    """``retrievers.fusion.WeightedRRF`` -> ``retrievers.fusion.rrf.WeightedRRF``; others unchanged."""
    module, name = _split(target)
    return f"{MOVED[module]}.{name}" if module in MOVED and module not in _BACK else target


def _map(node: Any, fn) -> Any:
    if isinstance(node, dict):
        return {k: (fn(v) if k == "_target_" and isinstance(v, str) else _map(v, fn)) for k, v in node.items()}
    if isinstance(node, list):
        return [_map(v, fn) for v in node]
    return node


def as_recorded(node: Any) -> Any:
    """A plain config (dicts and lists) with every moved ``_target_`` in its original module."""
    return _map(node, recorded_target)


def as_current(node: Any) -> Any:
    """A plain config with every ``_target_`` written with an old module moved to its new one."""
    return _map(node, current_target)
