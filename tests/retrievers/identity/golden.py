"""Each preset's part identities and probe digest, as recorded in ``golden.json`` beside this file.

Re-record after a deliberate change with ``python -m tests.retrievers.identity.golden``. It refuses to
record a preset whose probe output changed while every part in it kept its version: bump the version
in the part's ``@declare`` first (the change is then visible in review and in every cache key).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden.json"
ROOT = Path(__file__).resolve().parents[3]
EMBEDDERS = ("minilm",)  # the others are built models (minutes); their wrappers share MiniLM's probe path


def _compose(group: str, name: str) -> dict:
    from hermes_eval.config.compose import compose
    from hermes_eval.config.parts import plain

    return plain(compose([f"{group}={name}"])[group])


def _entry(node: dict, output) -> dict:
    from retrievers.identity.key import output_digest, part_id
    from retrievers.identity.names import targets

    return {"parts": sorted(part_id(t) for t in targets(node) if t is not None), "probe": output_digest(output)}


def current() -> dict[str, dict]:
    """Every chunker, leg and MiniLM preset's entry as this tree computes it."""
    from hermes_eval.config.parts import instantiate_part
    from retrievers.chunkers.coverage import probe_chunks
    from retrievers.identity.probe import encoder_probe, index_probe

    out: dict[str, dict] = {}
    for path in sorted((ROOT / "conf" / "chunker").glob("*.yaml")):
        node = _compose("chunker", path.stem)
        out[f"chunker/{path.stem}"] = _entry(node, probe_chunks(instantiate_part(node)))
    for path in sorted((ROOT / "conf" / "retriever").glob("*.yaml")):
        retriever = _compose("retriever", path.stem)
        for leg in ("sparse", "dense"):
            node = retriever.get(leg)
            if isinstance(node, dict) and "_target_" in node:
                out[f"retriever/{path.stem}/{leg}"] = _entry(node, index_probe(instantiate_part(node)))
    for name in EMBEDDERS:
        node = {k: v for k, v in _compose("embedder", name).items() if k != "cache_dir"}
        emb = instantiate_part(node)
        out[f"embedder/{name}"] = _entry(node, encoder_probe(emb._clipped_encode))
    return out


def unbumped(recorded: dict[str, dict], now: dict[str, dict]) -> list[str]:
    """Presets whose probe output changed while their parts (names and versions) did not."""
    return sorted(k for k, v in now.items() if k in recorded and recorded[k]["parts"] == v["parts"]
                  and recorded[k]["probe"] != v["probe"])


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
