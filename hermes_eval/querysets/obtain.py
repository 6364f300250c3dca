"""Load the configured query set, generating it first when it does not exist yet."""
from __future__ import annotations

from pathlib import Path

from filelock import FileLock
from omegaconf import DictConfig

from hermes_eval.config.parts import instantiate_part, plain
from hermes_eval.core.corpus import Corpus
from hermes_eval.core.errors import UserError
from hermes_eval.core.queryset import QuerySet
from hermes_eval.querysets.store import load_queryset, save_queryset


def queryset_dir(cfg: DictConfig) -> Path:
    return Path(cfg.paths.datasets) / cfg.queryset.name


def generate(cfg: DictConfig, corpus: Corpus) -> QuerySet:
    gen = cfg.queryset.get("generator")
    if gen is None:
        raise UserError(f"query set {cfg.queryset.name!r} has no generator and no files in "
                        f"{queryset_dir(cfg)}: import it or pick another queryset")
    qs = instantiate_part(gen).generate(corpus, cfg.queryset.name)
    qs.manifest.setdefault("corpus_sources", [str(s) for s in cfg.corpus.sources])
    qs.manifest["generator_config"] = plain(gen)
    return qs


def obtain_queryset(cfg: DictConfig, corpus: Corpus, force: bool = False) -> QuerySet:
    folder = queryset_dir(cfg)
    locks = Path(cfg.paths.cache) / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    with FileLock(str(locks / f"queryset-{folder.name}.lock")):
        exists = (folder / "queries.parquet").exists() or (folder / "queries.jsonl").exists()
        if force or not exists:
            save_queryset(generate(cfg, corpus), folder)
    qs = load_queryset(folder)
    stored, gen = qs.manifest.get("generator_config"), cfg.queryset.get("generator")
    if stored is not None and gen is not None and stored != plain(gen):
        raise UserError(f"query set {folder} was generated with other settings than queryset "
                        f"{cfg.queryset.name!r} now has ({_diff(stored, plain(gen))}): regenerate it with "
                        f"`hermes-eval datasets generate --force` or give the set another queryset.name")
    want = qs.manifest.get("corpus_fingerprint")
    if want and want != corpus.fingerprint:
        raise UserError(f"query set {folder} was built from corpus fingerprint {want} but corpus "
                        f"{corpus.name!r} is {corpus.fingerprint}: regenerate it with `hermes-eval "
                        f"datasets generate --force queryset={cfg.queryset.name}`")
    return qs


def _diff(a: dict, b: dict) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return ", ".join(f"{k}: {a.get(k)!r} -> {b.get(k)!r}" for k in keys[:4])
