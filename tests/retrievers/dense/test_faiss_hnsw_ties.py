"""HNSW scores the hits it finds with one kernel (FaissIndex version 2): copies of a vector tie exactly and
come back in id order, on every SIMD level faiss picks. Before, its search scored some neighbours four at
a time and others one by one, and on AVX2 one copy of 30 scored 1.0 and the rest 0.99999994."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TRIALS = 30

SCRIPT = f"""
import json
import numpy as np
from retrievers.dense.faiss_index import FaissIndex

out = []
for seed in range({TRIALS}):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(384).astype(np.float32)
    v /= np.linalg.norm(v)
    others = rng.standard_normal((20, 384)).astype(np.float32)
    others /= np.linalg.norm(others, axis=1, keepdims=True)
    ids = [f"dup/{{i:02d}}" for i in range(30)][::-1] + [f"other/{{i:02d}}" for i in range(20)]
    ix = FaissIndex(kind="hnsw")
    ix.build(ids, np.vstack([np.repeat(v[None], 30, axis=0), others]))
    out.append(ix.search(v[None], 4)[0])
print(json.dumps(out))
"""


def _levels() -> list[str]:
    flags = Path("/proc/cpuinfo").read_text().split() if Path("/proc/cpuinfo").exists() else []
    return ["NONE", "AVX2"] + (["AVX512"] if "avx512f" in flags else [])


@pytest.mark.parametrize("level", _levels())
def test_copies_found_by_hnsw_tie_and_come_back_in_id_order(level):
    """AVX2 is where the engine's own scores split the copies (30 seeds: most of them did)."""
    env = dict(os.environ, FAISS_SIMD_LEVEL=level, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for hits in json.loads(proc.stdout):
        ids, scores = [h[0] for h in hits], [h[1] for h in hits]
        assert len(hits) == 4 and all(i.startswith("dup/") for i in ids)
        assert len(set(scores)) == 1, f"copies scored apart: {hits}"
        assert ids == sorted(ids)
