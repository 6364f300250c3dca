"""What a BM25-only run loads: no torch, and none of the libraries whose import cost a small run most of its
time (ranx and numba, scipy.stats, pandas, datasets, matplotlib): the run's own measures, BCa and parquet
writer stand in for them. Once its composition is stored, not Hydra either (its parts are built by their
``_target_`` as Hydra would build them), nor the embedder's tokenizer for queries too short to exceed the model's
window, nor ``importlib.metadata`` for versions already stored. Run in fresh processes, on the committed
default query set."""
from __future__ import annotations

import json
import os
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


LATER = ("hydra", "importlib.metadata", "numpy.ma", "tokenizers")
SECOND = CODE.replace(repr(HEAVY), repr(HEAVY + LATER))


def test_a_second_bm25_run_loads_neither_hydra_nor_the_tokenizer(tmp_path):
    env = {**os.environ, "HERMES_COMPOSE_CACHE": str(tmp_path / "compose")}
    got = []
    for i in range(2):
        words = ["run", "retriever=bm25", "chunker=lines", f"paths.runs={tmp_path / f'runs{i}'}",
                 f"paths.cache={tmp_path / f'cache{i}'}", "progress=off", "bootstrap=50"]
        proc = subprocess.run([sys.executable, "-c", SECOND, *words], cwd=ROOT, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]
        got.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert "hydra" in got[0]["loaded"]  # the first composes
    # the embedder's tokenizer is loaded only when a query may exceed its window (docstrings up to 524 characters)
    from hermes_eval.judge.leaks import may_exceed
    from hermes_eval.querysets.store import load_queryset

    long = any(may_exceed(q.query, 256) for q in load_queryset(ROOT / "datasets" / "default-docstring").queries)
    assert got[1] == {"code": 0, "loaded": ["tokenizers"] if long else []}
    records = [json.loads(next((tmp_path / f"runs{i}").glob("*/record.json")).read_text()) for i in range(2)]
    assert records[0]["metrics"]["ndcg@10"]["mean"] == records[1]["metrics"]["ndcg@10"]["mean"] > 0
    hygiene = records[1]["hygiene"]
    assert hygiene["token_counter"] == "tokenizer:all-MiniLM-L6-v2" and hygiene["too_long"] == 0


def test_a_module_of_the_package_loads_no_config_or_stages():
    """``import hermes_eval.X`` runs the package's ``__init__``: its API is imported at first use, so a reader of
    query sets (or the cost benches' references) loads neither OmegaConf nor the run's stages."""
    code = ("import sys; import hermes_eval.querysets.store, hermes_eval.costs.snapshot_reference; "
            "print(sorted(m for m in ('omegaconf', 'hydra', 'hermes_eval.api', 'hermes_eval.stages') if m in sys.modules)); "
            "import hermes_eval; print(hermes_eval.run.__module__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "hermes_eval.api"]
