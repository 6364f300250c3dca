"""`hermes-eval datasets generate|list|show|check|import|export`.

``generate [CONFIG|all]`` builds conf/queryset/CONFIG (or every config with a generator);
``import FORMAT PATHS... [key=value ...]`` runs one of the importers in
``hermes_eval/querysets/importers/registry.py`` (the modules declaring ``IMPORT_FORMAT``) and writes datasets/NAME/ (each importer's typed
``Options`` say which bare paths and ``key=value`` options it takes; ``name=`` names the set);
``mine SOURCE [key=value ...]`` is ``import mined SOURCE ...``: a repository's commits as
queries (``hermes_eval/querysets/mined/``); ``export beir OUT`` writes the configured query set + corpus as a BEIR folder. Any other
``key=value`` is a Hydra override.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from hermes_eval.config.known_keys import UnknownKey
from hermes_eval.core.errors import UserError

log = logging.getLogger(__name__)
# an imported set is rebuilt from its source (the record's data and mirrors), never committed: its folder ignores
# itself, so a new benchmark needs no rule in the top-level .gitignore
IMPORTED_IGNORE = "# written by `hermes-eval datasets import`: rebuilt from its source, not committed\n*\n"


def _option_keys(fmt: str | None) -> set[str]:
    """``key=value`` words that belong to importer ``fmt`` (its options, plus ``name``), or for
    any other action none: they are Hydra overrides then."""
    from hermes_eval.cli.import_options import FLAGS, SUPPLIED, option_names
    from hermes_eval.querysets.importers.registry import IMPORTERS, importer

    if fmt not in IMPORTERS:
        return set()
    return option_names(importer(fmt).Options) - SUPPLIED - set(FLAGS)


def unknown_option(exc: UnknownKey, fmt: str, where: str) -> UserError:
    """A ``key=value`` word neither importer ``fmt`` nor the config knows: the closest of the importer's options
    (and of the config's keys)."""
    from hermes_eval.config.known_keys import closest, shown

    options = sorted(_option_keys(fmt) | {"name"})
    if exc.key in options:  # `+since=..`: an option, not a key to add
        return UserError(f"{where}: {shown(exc.word)}: {exc.key} is an option of {fmt}; write {shown(exc.word)}")
    near = [*closest(exc.key, options), *closest(exc.key, exc.known)]
    hint = f"closest: {', '.join(near)}" if near else f"none is close; its options: {', '.join(options)}"
    return UserError(f"{where}: {shown(exc.word)}: no such option; {hint}")


def usage_text(conf_dir: Path) -> str:
    """The formats ``datasets import`` reads (from the importers' options) and the benchmarks recorded in
    conf/benchmarks (from the records): the ``datasets --help`` epilog."""
    from hermes_eval.cli.benchmark import listing, wrap
    from hermes_eval.cli.import_options import usage
    from hermes_eval.querysets.importers.registry import IMPORTERS

    lines = ["import formats: hermes-eval datasets import FORMAT PATHS.. [key=value ..] [name=NAME]"]
    for name, entry in sorted(IMPORTERS.items()):
        lines += [wrap(usage(name, entry.load().Options), 2), wrap(entry.summary, 6)]
    return "\n".join([*lines, "", listing(conf_dir)])


def _split(rest: list[str], keys: set[str]) -> tuple[list[str], dict, list[str]]:
    """(positional words, importer options named in ``keys``, Hydra overrides)."""
    words = [r for r in rest if "=" not in r]
    options = {r.split("=", 1)[0]: r.split("=", 1)[1] for r in rest
               if "=" in r and r.split("=", 1)[0] in keys}
    overrides = [r for r in rest if "=" in r and r.split("=", 1)[0] not in keys]
    return words, options, overrides


def _settings(cfg):
    from hermes_eval.config.settings import settings_from
    from hermes_eval.core.progress import after_of, configure

    configure(str(cfg.get("progress", "auto")), after=after_of(cfg))
    return settings_from(cfg)


def generator_configs(conf_dir: Path) -> list[str]:
    """Names of conf/queryset/*.yaml that have a generator."""
    return sorted(p.stem for p in (conf_dir / "queryset").glob("*.yaml") if "generator:" in p.read_text())


def _list(root: Path) -> int:
    for d in sorted(p for p in root.iterdir() if p.is_dir()) if root.exists() else []:
        m = d / "manifest.json"
        info = json.loads(m.read_text()) if m.exists() else {}
        cols = [d.name, str(info.get("generator", "?")),
                 f"{(info.get('counts') or {}).get('queries', '?')} queries", str(info.get("protocol") or "")]
        print("\t".join(cols).rstrip())
    return 0


def _generate(words: list[str], overrides: list[str], compose, force: bool) -> int:
    from hermes_eval.config.compose import CONF_DIR
    from hermes_eval.stages.prepare import prepare_queries

    names = generator_configs(CONF_DIR) if words == ["all"] else words or [None]
    for config in names:
        s = _settings(compose(([f"queryset={config}"] if config else []) + overrides))
        p = prepare_queries(s, force=force)
        qs, corpus = p.queryset, p.corpus
        skipped = {k: v for k, v in (qs.manifest.get("skipped") or {}).items() if v}
        print(f"{s.paths.datasets / qs.name}: {len(qs)} queries (corpus {corpus.name} "
              f"{corpus.fingerprint}; skipped {skipped or 'none'})")
    return 0


def _import(words: list[str], options: dict, root: Path, repos: str | None = None, cache: str = ".cache",
            command: str | None = None) -> int:
    """``command``: the words the user typed when not ``datasets import FORMAT`` (``datasets mine``)."""
    from hermes_eval.cli.import_options import build_options
    from hermes_eval.querysets.importers.registry import IMPORTERS, importer
    from hermes_eval.querysets.store import save_queryset

    if not words or words[0] not in IMPORTERS:
        raise UserError(f"datasets import: give a format ({'|'.join(sorted(IMPORTERS))}) and its paths")
    fmt, args = words[0], words[1:]
    module = importer(fmt)
    options = dict(options)
    name = options.pop("name", None) or f"{fmt}-{Path(args[0]).stem if args else 'import'}"
    dest = root / name
    try:
        opts = build_options(module.Options, fmt, args, options, name=name, dest=dest, cache_dir=Path(cache),
                             repos_dir=Path(repos) if repos else None)
    except UserError as exc:
        if command is None:
            raise
        raise UserError(str(exc).replace(f"datasets import {fmt}", command)) from None
    qs = module.run(opts)
    save_queryset(qs, dest)
    (dest / ".gitignore").write_text(IMPORTED_IGNORE)
    print(f"{dest}: {len(qs)} queries; skipped {qs.manifest.get('skipped')}")
    print(run_command(qs, name, root))
    return 0


def run_command(qs, name: str, root: Path = Path("datasets")) -> str:
    """The exact ``hermes-eval run`` command for an imported set (its datasets folder when not the
    default, then the importer's own overrides, e.g. ``chunker=whole_file``)."""
    sources = ",".join(qs.manifest.get("corpus_sources") or [])
    extra = [*([f"paths.datasets={root}"] if Path(root) != Path("datasets") else []),
             *(qs.manifest.get("run_overrides") or [])]
    return (f"hermes-eval run queryset=imported queryset.name={name} corpus.name={name} "
            f"'corpus.sources=[{sources}]'" + "".join(f" {w}" for w in extra))


def _export(words: list[str], cfg) -> int:
    from hermes_eval.querysets.importers.beir import export_beir
    from hermes_eval.stages.prepare import prepare_queries

    if len(words) != 2 or words[0] != "beir":
        raise UserError("datasets export: use `datasets export beir OUT_DIR [queryset=... chunker=...]`")
    s = _settings(cfg)
    p = prepare_queries(s)
    counts = export_beir(p.queryset, p.indexed, s.chunker.build(), Path(words[1]))
    print(f"{words[1]}: {json.dumps(counts)}")
    if counts["queries_with_exclude"]:
        print(f"note: {counts['queries_with_exclude']} queries carry exclude spans; BEIR tools ignore them "
              f"(they are in queries.jsonl metadata), so their scores there include excluded text")
    return 0


def run(args, compose) -> int:
    from hermes_eval.config.compose import CONF_DIR

    command = None
    if args.action == "mine":  # `datasets mine SOURCE ..` is `datasets import mined SOURCE ..`
        from hermes_eval.corpus.git_source import repo_name
        from hermes_eval.querysets.mined.commits import split_source

        words = [r for r in args.rest if "=" not in r]
        named = [f"name=mine-{repo_name(split_source(words[0])[0])}"] if words and not any(
            r.startswith("name=") for r in args.rest) else []
        args.action, args.rest, command = "import", ["mined", *args.rest, *named], "datasets mine"
    fmt = next((r for r in args.rest if "=" not in r), None) if args.action == "import" else None
    if fmt is not None:
        from hermes_eval.querysets.importers.registry import current_name

        now = current_name(fmt)  # an old format name is the same importer, said once
        if now != fmt:
            at = args.rest.index(fmt)
            fmt, args.rest = now, [*args.rest[:at], now, *args.rest[at + 1:]]
    words, options, overrides = _split(args.rest, _option_keys(fmt) | ({"name"} if fmt else set()))
    if args.action == "generate":
        return _generate(words, overrides, compose, args.force)
    if args.action in ("show", "check") and words and (CONF_DIR / "queryset" / f"{words[0]}.yaml").is_file():
        overrides, words = [f"queryset={words[0]}", *overrides], words[1:]  # a config name
    try:
        cfg = compose(overrides)
    except UnknownKey as exc:  # not a config key: name the importer's options too
        raise (unknown_option(exc, fmt, command or f"datasets import {fmt}") if args.action == "import" and fmt
               else exc) from None
    root = Path(cfg.paths.datasets)
    if args.action == "list":
        return _list(root)
    if args.action == "import":
        return _import(words, options, root, getattr(args, "repos", None), cfg.paths.cache, command)
    if args.action == "export":
        return _export(words, cfg)
    from hermes_eval.querysets.store import load_queryset

    name = words[0] if words else None
    if args.action == "show":
        qs = load_queryset(root / (name or cfg.queryset.name))
        print(json.dumps(qs.manifest, indent=2, sort_keys=True))
        for q in qs.queries[:5]:
            print(json.dumps(q.to_dict())[:300])
        return 0
    return _check(name, cfg, root)


def _check(name: str | None, cfg, root: Path) -> int:
    from hermes_eval.config.settings import CorpusSettings
    from hermes_eval.corpus.masking import mask_corpus
    from hermes_eval.querysets.store import load_queryset
    from hermes_eval.stages.judge import hygiene_of
    from hermes_eval.stages.prepare import open_corpus, prepare_queries

    s = _settings(cfg)
    if name and name != cfg.queryset.name:
        folder = root / name
        qs = load_queryset(folder)
        sources = qs.manifest.get("corpus_sources")
        if not sources:
            raise UserError(f"datasets check {name}: its manifest names no corpus folder; pass "
                            f"queryset=<config> so the corpus it was built on is known")
        corpus = open_corpus(CorpusSettings(name=name, sources=tuple(sources)), s.paths.cache)
        indexed = mask_corpus(corpus, qs.masks)
    else:
        p = prepare_queries(s)
        qs, indexed = p.queryset, p.indexed
    h = hygiene_of(qs, indexed, s.hygiene).to_dict()
    if qs.manifest.get("protocol"):
        h["protocol"] = qs.manifest["protocol"]
        h["leaks_by_design"] = bool(qs.manifest.get("leaks_by_design"))
    print(json.dumps(h, indent=2))
    threshold = s.hygiene.self_retrieval_warn
    if max(h["self_retrieval_share"], h["leak_share"]) > threshold:
        log.warning(f"leak_share {h['leak_share']:.1%} / self_retrieval_share "
                    f"{h['self_retrieval_share']:.1%} above {threshold:.0%}: scores on this set are inflated")
    return 0
