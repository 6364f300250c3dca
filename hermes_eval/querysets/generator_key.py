"""The identity of a query-set generator: its declared name and version, its libraries, and the
queries it makes of the probe corpus (:mod:`retrievers.identity.probe`); the Java/C probe files join
that corpus for a generator whose ``languages`` list them, and only then (every other key stays as recorded)."""
from __future__ import annotations

from functools import lru_cache
import json
from typing import Any

from hermes_eval.core.corpus import Corpus, CorpusFile
from retrievers.identity.key import config_key
from retrievers.identity.probe import LATER_LANGUAGES, first_probe_files, later_probe_files


@lru_cache(maxsize=None)
def probe_corpus(later: frozenset[str] = frozenset()) -> Corpus:
    """The probe files (and the ``later`` languages' ones) as a one-repository corpus."""
    files = first_probe_files() + later_probe_files(later)
    return Corpus("probe", tuple(CorpusFile(path, "probe", language, text) for path, text, language in files))


def _queries(node: dict) -> Any:
    from hermes_eval.config.parts import instantiate_part

    try:
        generator = instantiate_part(node)
        later = frozenset(getattr(generator, "languages", None) or ()) & frozenset(LATER_LANGUAGES.values())
        qs = generator.generate(probe_corpus(later), "probe")
    except Exception as exc:  # noqa: BLE001 - a generator with nothing to take from the probe says why
        return f"{type(exc).__name__}: {exc}"
    return list(qs.queries)


@lru_cache(maxsize=None)
def _key(blob: str) -> str:
    node = json.loads(blob)
    return config_key(node, lambda: _queries(node))


def generator_key(node: dict) -> str:
    """16 hex digits: what the generator config ``node`` builds, and what it makes of the probe corpus."""
    from omegaconf import OmegaConf

    return _key(json.dumps(OmegaConf.to_container(OmegaConf.create(node), resolve=True), sort_keys=True))
