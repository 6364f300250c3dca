"""The manifest every generator writes beside its queries (``datasets/NAME/manifest.json``)."""
from __future__ import annotations


def manifest(generator: str, version: str, seed: int, params: dict, corpus, counts: dict,
             skipped: dict, **extra) -> dict:
    """The manifest every generator writes beside its queries."""
    return dict({"generator": generator, "generator_version": version, "seed": seed, "params": params,
                 "corpus": corpus.name, "corpus_fingerprint": corpus.fingerprint,
                 "counts": counts, "skipped": dict(sorted(skipped.items()))}, **extra)
