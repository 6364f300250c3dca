"""Every preset's key is the same whichever SIMD path torch, faiss and numpy take, and the numbers the
golden check compares stay within its tolerances. Each setting runs in its own process (the libraries
pick their kernels once, at import): torch by ``ATEN_CPU_CAPABILITY``, faiss by ``FAISS_SIMD_LEVEL``
(faiss >= 1.12 picks its level at run time; ``FAISS_OPT_LEVEL`` picks the library build older wheels ship
several of), numpy by ``NPY_DISABLE_CPU_FEATURES``. usearch has no such switch. On a CPU without AVX-512 the avx512 setting is left out (torch
would refuse it); a machine with AVX-512 then checks what one without it computes, and the other way
round the default and avx2 settings do."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.retrievers.identity.golden import ROOT, SCORE_RTOL, VECTOR_ATOL

pytestmark = pytest.mark.long  # three processes computing every preset's key: scheduled first (tests/conftest.py)


def _cpu_has(flag: str) -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            return flag in fh.read().split()
    except OSError:
        return False


def _numpy_dispatch() -> list[str]:
    """numpy's dispatched features this CPU has, read in a process that disables none (this one may run
    under NPY_DISABLE_CPU_FEATURES itself)."""
    code = ("from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f;"
            "print(' '.join(x for x in d if f.get(x)))")
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def settings() -> dict[str, dict[str, str]]:
    """name -> environment: the plainest kernels, AVX2, and AVX-512 where the CPU has it."""
    out = {"default": {"ATEN_CPU_CAPABILITY": "default", "FAISS_SIMD_LEVEL": "NONE", "FAISS_OPT_LEVEL": "generic",
                       "NPY_DISABLE_CPU_FEATURES": " ".join(_numpy_dispatch())},
           "avx2": {"ATEN_CPU_CAPABILITY": "avx2", "FAISS_SIMD_LEVEL": "AVX2", "FAISS_OPT_LEVEL": "AVX2"}}
    if _cpu_has("avx512f"):
        out["avx512"] = {"ATEN_CPU_CAPABILITY": "avx512", "FAISS_SIMD_LEVEL": "AVX512", "FAISS_OPT_LEVEL": "AVX512"}
    return out


def _keys(extra: dict[str, str]) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATEN_CPU_CAPABILITY", "FAISS_SIMD_LEVEL", "FAISS_OPT_LEVEL", "NPY_DISABLE_CPU_FEATURES")}
    env.update(extra, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "tests.retrievers.identity.preset_keys"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def computed() -> dict[str, dict]:
    return {name: _keys(env) for name, env in settings().items()}


def test_the_settings_really_take_other_kernels(computed):
    simd = {name: got["simd"] for name, got in computed.items()}
    assert simd["default"]["torch"] == "DEFAULT" and simd["avx2"]["torch"] == "AVX2"
    assert simd["default"]["numpy"] == []  # every dispatched numpy kernel switched off
    if isinstance(simd["default"]["faiss"], str):
        assert simd["default"]["faiss"] == "NONE" and simd["avx2"]["faiss"] == "AVX2"
    if "avx512" in simd:
        assert simd["avx512"]["torch"] == "AVX512"


def test_every_preset_key_is_the_same_on_every_simd_path(computed):
    names = list(computed)
    first = computed[names[0]]["keys"]
    assert len(first) >= 50 and any(k.startswith("embedder/") for k in first)
    for name in names[1:]:
        differ = sorted(k for k in first if computed[name]["keys"].get(k) != first[k])
        assert differ == [], f"keys differ between {names[0]} and {name}: {differ}"


def test_the_numbers_differ_by_less_than_the_golden_tolerances(computed):
    """The golden check's tolerances hold between SIMD paths, with room to spare (the measured spread is
    printed: pytest -s)."""
    names = list(computed)
    base = computed[names[0]]
    for name in names[1:]:
        other = computed[name]
        for key, vecs in base["vectors"].items():
            spread = float(np.abs(np.asarray(vecs) - np.asarray(other["vectors"][key])).max())
            print(f"{key}: {names[0]} vs {name}: max |delta| {spread:.2e} (tolerance {VECTOR_ATOL:.0e})")
            assert spread < VECTOR_ATOL / 10
        for key, scores in base["scores"].items():
            for a, b in zip(scores, other["scores"][key]):
                assert len(a) == len(b) and np.allclose(a, b, rtol=SCORE_RTOL / 10, atol=SCORE_RTOL / 10), key
