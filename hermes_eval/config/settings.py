"""The composed Hydra config as typed, frozen settings: the only thing the run stages see.

``settings_from(cfg)`` validates the config (one-line errors naming the field), resolves it once,
and hands every stage what it needs; a pipeline part stays a :class:`Part` (its plain config
node) until the build stage instantiates it.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from omegaconf import DictConfig

from hermes_eval.config.identity import UNRECORDED, config_hash, slug, system_label
from hermes_eval.config.parts import instantiate_part, plain
from hermes_eval.config.validate import validate
from hermes_eval.core.errors import UserError
from hermes_eval.corpus.scan import MAX_FILE_BYTES
from hermes_eval.record.run_lock import MODES as BUSY_RUN_MODES

LEG_NAMES = ("sparse", "dense")


@dataclass(frozen=True)
class Part:
    """A pipeline part as configured: its plain config node (with ``_target_``)."""

    node: Mapping[str, Any]

    @property
    def name(self) -> str | None:
        return self.node.get("name")

    def get(self, key: str, default: Any = None) -> Any:
        return self.node.get(key, default)

    def build(self) -> Any:
        """Instantiate the part (``_target_``), descriptive keys dropped."""
        return instantiate_part(dict(self.node))

    @staticmethod
    def of(node: Any) -> "Part | None":
        data = plain(node)
        return Part(data) if data else None


@dataclass(frozen=True)
class CorpusSettings:
    name: str
    sources: tuple[str, ...]
    max_file_bytes: int = MAX_FILE_BYTES
    languages: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()  # globs on corpus paths never indexed (minified bundles, changelogs)


@dataclass(frozen=True)
class QuerySetSettings:
    name: str
    generator: Part | None
    folder: Path


@dataclass(frozen=True)
class HygieneSettings:
    """Hygiene thresholds and leak sizes (``hygiene:`` in the config) and the embedder it checks."""

    self_retrieval_warn: float = 0.05
    max_seq_tokens: int | None = None
    tokenizer_model: str | None = None  # None: the regex approximation
    leak_lines: int = 5
    leak_line_chars: int = 60
    leak_chars: int = 200
    corpus_leaks: bool = True
    corpus_leak_chars: int = 200
    corpus_leak_min_chars: int = 30
    corpus_leak_max_copies: int = 5


@dataclass(frozen=True)
class Paths:
    runs: Path
    cache: Path
    datasets: Path


@dataclass(frozen=True)
class RunSettings:
    """Everything one run needs, resolved and validated."""

    config: dict  # the resolved config, as the record stores it
    config_hash: str
    label: str  # e.g. ``rank_bm25+exact w_dense=0.5``
    experiment: str | None
    seed: int
    warmup: int
    bootstrap: int
    exclude_overfetch: int
    depths: Mapping[str, int]
    corpus: CorpusSettings
    queryset: QuerySetSettings
    hygiene: HygieneSettings
    chunker: Part
    embedder: Part
    legs: Mapping[str, Part]  # configured sparse/dense legs (the fusion decides which run)
    service: Part | None  # a running search service scored as a black box
    retriever_name: str | None
    fusion: Part
    reranker: Part | None = None
    expander: Part | None = None
    # how a snapshot set's dense legs share one vector store (conf/snapshot_dense; null: the defaults of
    # retrievers.dense.snapshot_legs.SharedDense, exact legs over the store, other backends per snapshot)
    snapshot_dense: Part | None = None
    fusion_tuning: Mapping[str, Any] | None = None
    index_cache: bool = True
    rerun: bool = False
    busy_run: str = "skip"  # another process holds the run folder: skip it, or wait for it
    dedupe: bool = False  # collapse identical documents into one (relevance carried over)
    shard: tuple[int, int] | None = None  # (i, n): this job searches the i-th of n groups of snapshots
    chunk_workers: int = 1  # processes chunking what the chunk cache lacks (snapshot sets)
    snapshot_batch: int = 0  # a snapshot set runs this many snapshots at a time (0: all at once)
    paths: Paths = field(default_factory=lambda: Paths(Path("runs"), Path(".cache"), Path("datasets")))

    @property
    def chunker_name(self) -> str:
        return str(self.chunker.name)

    @property
    def run_name(self) -> str:
        """The run folder's name: ``<query set>-<chunker>-<system label>-<config hash>``."""
        return f"{slug(f'{self.queryset.name}-{self.chunker_name}-{self.label}')}-{self.config_hash}"


def corpus_settings(node: Any) -> CorpusSettings:
    langs = node.get("languages")
    return CorpusSettings(name=str(node.name), sources=tuple(str(s) for s in node.sources),
                          max_file_bytes=int(node.get("max_file_bytes", MAX_FILE_BYTES)),
                          languages=tuple(langs) if langs else None,
                          exclude=tuple(str(g) for g in (node.get("exclude") or ())))


def hygiene_settings(cfg: DictConfig) -> HygieneSettings:
    """The hygiene node, with the embedder's max sequence and tokenizer unless overridden."""
    h = cfg.get("hygiene") or {}
    emb = cfg.get("embedder") or {}
    max_seq = h.get("max_seq_tokens") or emb.get("max_seq_length")
    return HygieneSettings(
        self_retrieval_warn=float(h.get("self_retrieval_warn", 0.05)),
        max_seq_tokens=int(max_seq) if max_seq else None,
        tokenizer_model=None if h.get("tokenizer") == "approx" else emb.get("model"),
        leak_lines=int(h.get("leak_lines", 5)), leak_line_chars=int(h.get("leak_line_chars", 60)),
        leak_chars=int(h.get("leak_chars", 200)), corpus_leaks=bool(h.get("corpus_leaks", True)),
        corpus_leak_chars=int(h.get("corpus_leak_chars", 200)),
        corpus_leak_min_chars=int(h.get("corpus_leak_min_chars", 30)),
        corpus_leak_max_copies=int(h.get("corpus_leak_max_copies", 5)))


def shard_of(cfg: DictConfig) -> tuple[int, int] | None:
    """``shard=I/N``: the I-th (from 0) of N shards of a snapshot set's run; None when unsharded."""
    value = cfg.get("shard")
    if value is None or str(value) in ("", "null", "none"):
        return None
    text = str(value)
    i, _, n = text.partition("/")
    if not (i.isdigit() and n.isdigit() and 0 <= int(i) < int(n)):
        raise UserError(f"shard={text}: write shard=I/N with 0 <= I < N (e.g. shard=0/4, 'shard=0/4,1/4,2/4,3/4' "
                        f"in a sweep)")
    return int(i), int(n)


def chunk_workers_of(cfg: DictConfig) -> int:
    """``chunk_workers``: a positive number, or auto (one per core)."""
    raw = cfg.get("chunk_workers", 1)
    if str(raw) == "auto":
        return os.cpu_count() or 1
    if not str(raw).isdigit() or int(raw) < 1:
        raise UserError(f"chunk_workers={raw}: use a positive number or auto (conf/config.yaml, or "
                        "chunk_workers=1 on the command line)")
    return int(raw)


def snapshot_batch_of(cfg: DictConfig) -> int:
    """``snapshot_batch``: how many snapshots of a snapshot set are loaded, searched and judged at a time
    (0 or null: all at once)."""
    raw = cfg.get("snapshot_batch", 0)
    if raw is None:
        return 0
    if not str(raw).isdigit():
        raise UserError(f"snapshot_batch={raw}: use a number of snapshots, 0 for all at once (conf/config.yaml, or "
                        "snapshot_batch=50 on the command line)")
    return int(raw)


def busy_run_of(cfg: DictConfig) -> str:
    """``busy_run``: what a job does when another process holds its run folder."""
    mode = str(cfg.get("busy_run", "skip"))
    if mode not in BUSY_RUN_MODES:
        raise UserError(f"busy_run={mode}: use {' or '.join(BUSY_RUN_MODES)} (conf/config.yaml, or busy_run=wait "
                        f"on the command line)")
    return mode


def paths_of(cfg: DictConfig) -> Paths:
    return Paths(Path(cfg.paths.runs), Path(cfg.paths.cache), Path(cfg.paths.datasets))


def queryset_settings(cfg: DictConfig) -> QuerySetSettings:
    return QuerySetSettings(name=str(cfg.queryset.name), generator=Part.of(cfg.queryset.get("generator")),
                            folder=Path(cfg.paths.datasets) / str(cfg.queryset.name))


def recorded_config(cfg: DictConfig | dict) -> dict:
    """The resolved config as the record keeps it (without :data:`UNRECORDED` keys such as progress)."""
    data = copy.deepcopy(cfg) if isinstance(cfg, dict) else plain(cfg)
    for key in UNRECORDED:
        data.pop(key, None)
    return data


def settings_from(cfg: DictConfig) -> RunSettings:
    """Validate ``cfg`` and turn it into :class:`RunSettings`. The config is resolved once and every part's
    node read from that (resolving each node again parsed its interpolations again)."""
    validate(cfg)
    whole = plain(cfg)
    retr = whole["retriever"]
    return RunSettings(
        config=recorded_config(whole), config_hash=config_hash(whole), label=system_label(cfg),
        experiment=cfg.get("experiment_name"), seed=int(cfg.seed), warmup=int(cfg.warmup),
        bootstrap=int(cfg.get("bootstrap", 1000)), exclude_overfetch=int(cfg.get("exclude_overfetch", 50)),
        depths={k: int(v) for k, v in whole["depths"].items()},
        corpus=corpus_settings(cfg.corpus), queryset=queryset_settings(cfg), hygiene=hygiene_settings(cfg),
        chunker=Part(whole["chunker"]), embedder=Part(whole["embedder"]),
        legs={name: Part(retr[name]) for name in LEG_NAMES if retr.get(name)},
        service=Part.of(retr.get("service")), retriever_name=retr.get("name"), fusion=Part(whole["fusion"]),
        reranker=Part.of(whole.get("reranker")), expander=Part.of(whole.get("expander")),
        snapshot_dense=Part.of(whole.get("snapshot_dense")), fusion_tuning=whole.get("fusion_tuning"),
        index_cache=bool(cfg.get("index_cache", True)),
        rerun=bool(cfg.get("rerun", False)), busy_run=busy_run_of(cfg), dedupe=bool(cfg.get("dedupe", False)),
        shard=shard_of(cfg), chunk_workers=chunk_workers_of(cfg), snapshot_batch=snapshot_batch_of(cfg),
        paths=paths_of(cfg))
