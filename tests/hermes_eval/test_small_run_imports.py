"""What a BM25-only run loads: no torch, and none of the libraries whose import cost a small run most of its
time (ranx and numba, scipy.stats, pandas, datasets, matplotlib): the run's own measures, BCa and parquet
writer stand in for them. Run in a fresh process, on the committed default query set."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "ranx", "numba", "scipy.stats", "pandas", "datasets", "matplotlib", "sentence_transformers")

CODE = """
import json, sys
from hermes_eval.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "loaded": [m for m in %r if m in sys.modules]}))
""" % (HEAVY,)


def test_a_bm25_run_loads_none_of_the_heavy_libraries(tmp_path):
    words = ["run", "retriever=bm25", "chunker=lines", f"paths.runs={tmp_path / 'runs'}",
             f"paths.cache={tmp_path / 'cache'}", "progress=off", "bootstrap=50"]
    proc = subprocess.run([sys.executable, "-c", CODE, *words], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got == {"code": 0, "loaded": []}
    [record] = list((tmp_path / "runs").glob("*/record.json"))
    assert json.loads(record.read_text())["metrics"]["ndcg@10"]["mean"] > 0
