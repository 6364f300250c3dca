"""Load the configured query set, generating it first when it does not exist yet."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from filelock import FileLock

from hermes_eval.config.settings import QuerySetSettings
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.store import load_queryset, save_queryset


def generate(qs_cfg: QuerySetSettings, sources: Sequence[str], corpus: Corpus) -> QuerySet:
    """Run the query set's generator over ``corpus`` (built from ``sources``)."""
    gen = qs_cfg.generator
    if gen is None:
        raise UserError(f"query set {qs_cfg.name!r} has no generator and no files in "
                        f"{qs_cfg.folder}: import it or pick another queryset")
    qs = gen.build().generate(corpus, qs_cfg.name)
    qs.manifest.setdefault("corpus_sources", [str(s) for s in sources])
    qs.manifest["generator_config"] = dict(gen.node)
    return qs


def obtain_queryset(qs_cfg: QuerySetSettings, sources: Sequence[str], corpus: Corpus, cache_dir: Path,
                    force: bool = False) -> QuerySet:
    """The stored query set, generated (once, under a lock) when missing or when ``force``."""
    folder = qs_cfg.folder
    locks = Path(cache_dir) / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    with FileLock(str(locks / f"queryset-{folder.name}.lock")):
        exists = (folder / "queries.parquet").exists() or (folder / "queries.jsonl").exists()
        if force or not exists:
            save_queryset(generate(qs_cfg, sources, corpus), folder)
    qs = load_queryset(folder)
    stored = qs.manifest.get("generator_config")
    gen = dict(qs_cfg.generator.node) if qs_cfg.generator is not None else None
    if stored is not None and gen is not None and stored != gen:
        raise UserError(f"query set {folder} was generated with other settings than queryset "
                        f"{qs_cfg.name!r} now has ({_diff(stored, gen)}): regenerate it with "
                        f"`hermes-eval datasets generate --force` or give the set another queryset.name")
    want = qs.manifest.get("corpus_fingerprint")
    if want and want != corpus.fingerprint:
        raise UserError(f"query set {folder} was built from corpus fingerprint {want} but corpus "
                        f"{corpus.name!r} is {corpus.fingerprint}: regenerate it with `hermes-eval "
                        f"datasets generate --force queryset={qs_cfg.name}`")
    return qs


def _diff(a: dict, b: dict) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return ", ".join(f"{k}: {a.get(k)!r} -> {b.get(k)!r}" for k in keys[:4])
