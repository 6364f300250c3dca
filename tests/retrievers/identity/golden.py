"""Each preset's part identities, the digest of its discrete probe output, and its numbers, as recorded in
``golden.json`` beside this file.

Discrete output (chunks, ranked ids) is compared by digest; numbers (an index's scores, an embedder's
vectors) are compared within a stated tolerance, never hashed: their low bits follow the SIMD path
(``ATEN_CPU_CAPABILITY``, ``FAISS_OPT_LEVEL``, numpy's dispatch), so a digest of them passes only on a CPU
like the one that recorded it.

Re-record after a deliberate change with ``python -m tests.retrievers.identity.golden``. It refuses to
record a preset whose output changed while every part in it kept its version: bump the version in the
part's ``@declare`` first (the change is then visible in review and in every cache key).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).resolve().parent / "golden.json"
ROOT = Path(__file__).resolve().parents[3]
EMBEDDERS = ("minilm",)  # the others are built models (minutes); their wrappers share MiniLM's probe path
# Tolerances. MiniLM's probe vectors under ATEN_CPU_CAPABILITY=default, avx2 and avx512 differ by at most
# 1.7e-7 per component (measured on a Xeon with AVX-512; test_simd_identity re-measures it on every run);
# a behaviour change moves them far more. Index scores are BM25 sums or cosines of float32 vectors.
VECTOR_ATOL = 1e-4
SCORE_RTOL = 1e-4
DIGITS = 7  # significant digits a number is recorded with (well inside the tolerances)


def _compose(group: str, name: str) -> dict:
    from hermes_eval.config.compose import compose
    from hermes_eval.config.parts import plain

    return plain(compose([f"{group}={name}"])[group])


def _parts(node: dict) -> list[str]:
    from retrievers.identity.key import part_id
    from retrievers.identity.names import targets

    return sorted(part_id(t) for t in targets(node) if t is not None)


def _numbers(values) -> list:
    return np.vectorize(lambda x: float(f"{x:.{DIGITS}g}"))(np.asarray(values, dtype=np.float64)).tolist()


def current() -> dict[str, dict]:
    """Every chunker, leg and MiniLM preset's entry as this tree computes it."""
    from hermes_eval.config.parts import instantiate_part
    from retrievers.chunkers.coverage import probe_chunks
    from retrievers.embedders.model_source import model_identity, resolve_model
    from retrievers.identity.key import output_digest
    from retrievers.identity.probe import encoder_probe, index_probe, ranked_ids

    out: dict[str, dict] = {}
    for path in sorted((ROOT / "conf" / "chunker").glob("*.yaml")):
        node = _compose("chunker", path.stem)
        out[f"chunker/{path.stem}"] = {"parts": _parts(node),
                                       "probe": output_digest(probe_chunks(instantiate_part(node)))}
    for path in sorted((ROOT / "conf" / "retriever").glob("*.yaml")):
        retriever = _compose("retriever", path.stem)
        for leg in ("sparse", "dense"):
            node = retriever.get(leg)
            if isinstance(node, dict) and "_target_" in node:
                hits = index_probe(instantiate_part(node))
                out[f"retriever/{path.stem}/{leg}"] = {
                    "parts": _parts(node), "probe": output_digest(ranked_ids(hits)),
                    "scores": [_numbers([s for _, s in q]) for q in hits]}
    for name in EMBEDDERS:
        node = {k: v for k, v in _compose("embedder", name).items() if k != "cache_dir"}
        emb = instantiate_part(node)
        out[f"embedder/{name}"] = {"parts": _parts(node), "model": model_identity(resolve_model(emb.model)),
                                   "vectors": _numbers(encoder_probe(emb._clipped_encode))}
    return out


def differences(before: dict, now: dict) -> list[str]:
    """What differs between two entries of one preset, numbers within the tolerances counted equal."""
    out = [f for f in ("parts", "probe", "model") if before.get(f) != now.get(f)]
    for field, close in (("scores", lambda a, b: np.allclose(a, b, rtol=SCORE_RTOL, atol=SCORE_RTOL)),
                         ("vectors", lambda a, b: np.allclose(a, b, rtol=0, atol=VECTOR_ATOL))):
        a, b = before.get(field), now.get(field)
        if a is None and b is None:
            continue
        same_shape = a is not None and b is not None and [len(x) for x in a] == [len(x) for x in b]
        if not same_shape or not all(close(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
                                     for x, y in zip(a, b)):
            out.append(field)
    return out


def unbumped(recorded: dict[str, dict], now: dict[str, dict]) -> list[str]:
    """Presets whose output changed (beyond the tolerances) while their parts (names and versions) did not."""
    return sorted(k for k, v in now.items() if k in recorded and recorded[k]["parts"] == v["parts"]
                  and differences(recorded[k], v))


def main() -> int:
    recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    now = current()
    bad = unbumped(recorded, now)
    if bad:
        print(f"not recorded: the probe output of {', '.join(bad)} changed without a version bump; bump the "
              "version in the changed part's @declare(...) and run this again", file=sys.stderr)
        return 1
    GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(now)} presets in {GOLDEN}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
