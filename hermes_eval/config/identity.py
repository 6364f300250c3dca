"""What names a run: the config hash (what is measured) and human labels."""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from omegaconf import DictConfig

from hermes_eval.config.parts import instantiate_part, plain
from retrievers.identity.names import named
from retrievers.legs import active_legs as legs_that_run

# keys that do not change what a run measures, so they stay out of its hash
LOCATION_KEYS = frozenset({"cache_dir", "models_dir"})
# keys anywhere that say which machines compute a part's output, not what it is (embedder.scale_out)
PLACEMENT_KEYS = frozenset({"scale_out"})
UNHASHED = ("hydra", "paths", "rerun", "busy_run", "label", "experiment_name", "index_cache", "progress",
            "progress_after", "prefetch", "shard", "chunk_workers", "snapshot_batch")
# keys about how a run reports or schedules, not what it measures: kept out of the recorded config as well
UNRECORDED = ("progress", "progress_after", "prefetch", "busy_run", "shard", "chunk_workers", "snapshot_batch")
# how a snapshot set's vector store holds its float32 rows (in memory or memory-mapped, where), not what they are
STORE_PLACEMENT_KEYS = ("block_rows", "mmap_above_mb", "spill_dir")
# optional pipeline parts: null is hashed as absent; rerank_depth only feeds reranker.depth
OPTIONAL_PARTS = {"reranker": "rerank", "expander": "expand"}
# the embedder of conf/config.yaml; any other one is named in the system label of a run with a dense leg
DEFAULT_EMBEDDER = "minilm"



def _drop_locations(node: Any) -> Any:
    """Cache folders anywhere in the config say where results are kept, not what they are (and a scale-out,
    which machines make them)."""
    if isinstance(node, dict):
        return {k: _drop_locations(v) for k, v in node.items() if k not in LOCATION_KEYS | PLACEMENT_KEYS}
    if isinstance(node, list):
        return [_drop_locations(v) for v in node]
    return node


def config_hash(cfg: DictConfig | dict) -> str:
    """16 hex digits over what a run measures; every part by its declared name
    (:mod:`retrievers.identity.names`), so a part that moves or is renamed names the same runs."""
    data = dict(plain(cfg))
    for key in UNHASHED:
        data.pop(key, None)
    data = named(_drop_locations(data))  # after dropping hydra's own targets (its launcher) with its keys
    for key in OPTIONAL_PARTS:  # absent and null are the same run: older hashes stay valid
        if data.get(key) is None:
            data.pop(key, None)
    data.pop("rerank_depth", None)  # a sweep knob; its value is hashed as reranker.depth
    if isinstance(data.get("snapshot_dense"), dict):
        data["snapshot_dense"] = {k: v for k, v in data["snapshot_dense"].items() if k not in STORE_PLACEMENT_KEYS}
    blob = json.dumps(data, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def active_legs(cfg: DictConfig | dict) -> list[str]:
    """Leg names of the retriever that run (see :func:`retrievers.legs.active_legs`)."""
    retr = cfg["retriever"]
    return legs_that_run({leg: retr.get(leg) or None for leg in ("sparse", "dense")}, instantiate_part(cfg["fusion"]))


def system_label(cfg: DictConfig | dict) -> str:
    """e.g. ``rank_bm25``, ``exact``, ``rank_bm25+exact w_dense=0.3``; a preset's own name wins."""
    if cfg.get("system") and cfg["system"].get("name"):
        return str(cfg["system"]["name"])
    retr = cfg["retriever"]
    if retr.get("service"):  # a running service: its retriever name (set it per service)
        return str(retr.get("name") or "http")
    legs = active_legs(cfg)
    names = [str(retr[leg].get("name") or leg) for leg in legs]
    label = "+".join(names)
    if len(legs) > 1:
        w = cfg["fusion"].get("dense_weight")
        label += f" w_dense={w}" if w is not None else f" {cfg['fusion'].get('name', 'fusion')}"
    emb = cfg.get("embedder") or {}
    if "dense" in legs and emb.get("name") and emb.get("name") != DEFAULT_EMBEDDER:
        label += f" [{emb['name']}]"  # e.g. "rank_bm25+exact w_dense=0.5 [minilm_onnx_int8]"
    if cfg.get("dedupe"):  # identical documents collapsed: its own row beside the run without
        label += " +dedupe"
    files = cfg.get("file_score") or {}
    if files.get("how", "max") != "max":  # a declared file score (judge/file_score.py): "exact +files=sum_top_k@3"
        label += f" +files={files['how']}" + (f"@{files.get('k', 3)}" if files["how"] == "sum_top_k" else "")
    for part in ("expander", "reranker"):  # e.g. "... +expand=llm +rerank=mmr@10"
        node = cfg.get(part)
        if node:
            depth = f"@{node['depth']}" if node.get("depth") is not None else ""
            label += f" +{OPTIONAL_PARTS[part]}={node.get('name') or part}{depth}"
    return label


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "_", text).strip("_")[:120]
