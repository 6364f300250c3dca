"""Every query-set config with a generator builds a QueryGenerator, and every generator keeps the
contract on one corpus of Python, Go, Rust, JS, TS and markdown: unique qids, gold and exclude
spans inside the corpus, masks inside the corpus, a complete manifest, the same queries twice."""
from __future__ import annotations

import pkgutil

import pytest
import yaml

import hermes_eval.querysets.generators as generators_pkg
from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.parts import instantiate_part
from hermes_eval.core import Span
from hermes_eval.corpus import load_corpus
from hermes_eval.querysets.generators.base import QueryGenerator
from retrievers.kinds import missing_members

from qs_repos import POLYGLOT, SHOP, write_repo

CONFIGS = sorted(p.stem for p in (CONF_DIR / "queryset").glob("*.yaml")
                 if (yaml.safe_load(p.read_text()) or {}).get("generator"))
MANIFEST_KEYS = ("generator", "generator_version", "seed", "corpus_fingerprint", "counts", "skipped")


@pytest.fixture(scope="module")
def mixed_corpus(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mixed")
    shop = write_repo(tmp / "shop_repo", SHOP)
    return load_corpus([str(shop), *sorted(str(p) for p in POLYGLOT.iterdir())], name="mixed",
                       cache_dir=tmp / "cache")


def _generator(config: str):
    cfg = compose([f"queryset={config}", "corpus.name=mixed"])
    return instantiate_part(cfg.queryset.generator), str(cfg.queryset.name)


def test_every_generator_module_has_a_config():
    """A generator class no config builds would escape this suite."""
    targets = {str(yaml.safe_load((CONF_DIR / "queryset" / f"{c}.yaml").read_text())["generator"]["_target_"])
               for c in CONFIGS}
    modules = {t.rsplit(".", 2)[-2] for t in targets}
    found = {m.name for m in pkgutil.iter_modules(generators_pkg.__path__)}
    helpers = {"base", "manifest", "completion", "prompt_answer"}  # protocol, writer, shared hole base, analysis
    assert found - helpers - modules == set()


@pytest.mark.parametrize("config", CONFIGS)
def test_generator_contract(config, mixed_corpus):
    gen, name = _generator(config)
    assert isinstance(gen, QueryGenerator) and missing_members(gen, QueryGenerator) == []
    qs = gen.generate(mixed_corpus, name)
    again = _generator(config)[0].generate(mixed_corpus, name)
    assert qs.queries == again.queries, f"{config}: the same seed gave other queries"
    assert qs.queries, f"{config}: no query from a corpus with every language"
    assert qs.name == name and len({q.qid for q in qs.queries}) == len(qs.queries)
    lines = {f.path: f.n_lines for f in mixed_corpus.files}
    for q in qs.queries:
        for span in (*q.gold, *q.exclude, *(Span(**m) for m in q.meta.get("mask", []))):
            assert span.path in lines and 1 <= span.start <= span.end <= max(lines[span.path], 1), (config, q.qid, span)
        assert q.gold, f"{config}: query {q.qid} has no gold"
    missing = [k for k in MANIFEST_KEYS if k not in qs.manifest]
    assert not missing, f"{config}: manifest lacks {missing}"
    assert qs.manifest["corpus_fingerprint"] == mixed_corpus.fingerprint
    assert qs.manifest["counts"]["queries"] == len(qs.queries)
