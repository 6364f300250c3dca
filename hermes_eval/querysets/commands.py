"""`hermes-eval datasets generate|list|show|check`."""
from __future__ import annotations

import json
from pathlib import Path

from hermes_eval.errors import UserError


def _name_and_overrides(rest: list[str]) -> tuple[str | None, list[str]]:
    names = [r for r in rest if "=" not in r]
    return (names[0] if names else None), [r for r in rest if "=" in r]


def run(args, compose) -> int:
    name, overrides = _name_and_overrides(args.rest)
    cfg = compose(overrides)
    root = Path(cfg.paths.datasets)
    if args.action == "list":
        for d in sorted(p for p in root.iterdir() if p.is_dir()) if root.exists() else []:
            m = d / "manifest.json"
            info = json.loads(m.read_text()) if m.exists() else {}
            print(f"{d.name}\t{info.get('generator', '?')}\t{(info.get('counts') or {}).get('queries', '?')} queries")
        return 0
    from hermes_eval.corpus import load_corpus
    from hermes_eval.querysets.obtain import obtain_queryset
    from hermes_eval.querysets.store import load_queryset

    if args.action == "show":
        folder = root / (name or cfg.queryset.name)
        qs = load_queryset(folder)
        print(json.dumps(qs.manifest, indent=2, sort_keys=True))
        for q in qs.queries[:5]:
            print(json.dumps(q.to_dict())[:300])
        return 0
    corpus = load_corpus(list(cfg.corpus.sources), name=cfg.corpus.name, cache_dir=cfg.paths.cache,
                         languages=cfg.corpus.get("languages"))
    if args.action == "generate":
        qs = obtain_queryset(cfg, corpus, force=args.force)
        print(f"{root / qs.name}: {len(qs)} queries (corpus {corpus.name} {corpus.fingerprint})")
        return 0
    if name and name != cfg.queryset.name:
        raise UserError(f"datasets check {name}: pass queryset=<config> so the corpus it was built on "
                        f"is known (config queryset is {cfg.queryset.name!r})")
    from hermes_eval.corpus.masking import mask_corpus
    from hermes_eval.querysets.hygiene import check

    qs = obtain_queryset(cfg, corpus)
    print(json.dumps(check(qs, mask_corpus(corpus, qs.masks)).to_dict(), indent=2))
    return 0
