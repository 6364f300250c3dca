"""Every preset's identity as one process computes it, printed as JSON: the cache key of every chunker,
index leg and embedder preset (what runs are resumed and caches are read by), and the numbers the golden
check compares within its tolerances (MiniLM's probe vectors, every leg's probe scores), with the SIMD
paths the process took. ``test_simd_identity`` runs it under several instruction-set settings.

``python -m tests.retrievers.identity.preset_keys``
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def simd_paths() -> dict[str, object]:
    """What each library dispatched to in this process."""
    import faiss
    import torch
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return {"torch": torch.backends.cpu.get_cpu_capability(),
            "numpy": sorted(f for f in __cpu_dispatch__ if __cpu_features__.get(f)),
            "faiss": faiss.SIMDConfig.get_level_name() if hasattr(faiss, "SIMDConfig") else
            sorted(m for m in sys.modules if m.startswith("faiss.swigfaiss"))}


def preset_keys() -> dict:
    from hermes_eval.cache.indexes import leg_code
    from hermes_eval.config.parts import instantiate_part
    from retrievers.chunkers.coverage import probe_chunks
    from retrievers.identity.key import config_key
    from retrievers.identity.probe import index_probe
    from tests.retrievers.identity.golden import EMBEDDERS, _compose, _numbers

    keys: dict[str, str] = {}
    scores: dict[str, list] = {}
    for path in sorted((ROOT / "conf" / "chunker").glob("*.yaml")):
        node = _compose("chunker", path.stem)
        keys[f"chunker/{path.stem}"] = config_key(node, lambda node=node: probe_chunks(instantiate_part(node)))
    for path in sorted((ROOT / "conf" / "retriever").glob("*.yaml")):
        retriever = _compose("retriever", path.stem)
        for leg in ("sparse", "dense"):
            node = retriever.get(leg)
            if isinstance(node, dict) and "_target_" in node:
                keys[f"retriever/{path.stem}/{leg}"] = leg_code(node, instantiate_part)
                scores[f"retriever/{path.stem}/{leg}"] = [_numbers([s for _, s in q])
                                                          for q in index_probe(instantiate_part(node))]
    for path in sorted((ROOT / "conf" / "embedder").glob("*.yaml")):
        node = {k: v for k, v in _compose("embedder", path.stem).items() if k != "cache_dir"}
        keys[f"embedder/{path.stem}"] = instantiate_part(node).identity
    vectors = {}
    for name in EMBEDDERS:
        from retrievers.identity.probe import encoder_probe

        node = {k: v for k, v in _compose("embedder", name).items() if k != "cache_dir"}
        vectors[f"embedder/{name}"] = _numbers(encoder_probe(instantiate_part(node)._clipped_encode))
    return {"keys": keys, "scores": scores, "vectors": vectors, "simd": simd_paths()}


if __name__ == "__main__":
    json.dump(preset_keys(), sys.stdout)
