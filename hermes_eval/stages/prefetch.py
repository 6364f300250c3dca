"""Work a sweep's arms share, done once before they launch: for each group of arms with the same corpus
and chunker of which one needs vectors, the corpus, the query set, the chunking, the corpus-wide leak
check and the document vectors.

Every step goes through the same functions and the same content-addressed caches an arm uses
(:func:`~hermes_eval.stages.prepare.prepare`, the embedder's cache), so an arm reads exactly what
it would otherwise compute; nothing here decides a number. Done in the sweep's parent before the arms
launch, with every core, instead of by one arm's single-threaded worker while the others wait on its
lock. A step that fails is logged and left to the arms, which record the failure as they always do.
"""
from __future__ import annotations

import logging
from typing import Sequence

from hermes_eval.cache.content import Cache
from hermes_eval.config.settings import RunSettings
from hermes_eval.core.errors import one_line
from hermes_eval.stages.chain import reusable
from hermes_eval.stages.prepare import chunking_key
from retrievers.legs import active_legs
from retrievers.leg_text import leg_texts

log = logging.getLogger(__name__)


def _needs_vectors(s: RunSettings) -> bool:
    if s.service is not None:
        return False
    legs = [s.legs[name].build() for name in active_legs(s.legs, s.fusion.build())]
    return any(ix.input == "vector" for ix in legs)


def pending(arms: Sequence[RunSettings]) -> list[RunSettings]:
    """The arms that will run (``rerun``, or no finished record with their hash and part identities)."""
    return [s for s in arms if s.rerun or reusable(s)[0] is None]


def prefetch(arms: Sequence[RunSettings]) -> None:
    """Warm every cache ``arms`` (those that will run: :func:`pending`) share, group after group in the
    arms' order, here with all the process's threads.

    Groups run one after another, never side by side: two chunkings share some texts, and a text's
    vector depends in its last bits on the batch it was embedded in. In the arms' order the first
    chunking embeds the shared texts and the next one only its own, as the arms did before (measured:
    two groups embedding side by side changed the raw top-10 scores of the dense-only arms, though
    no ranking or metric).
    """
    groups: dict[tuple, list[RunSettings]] = {}
    for s in arms:
        groups.setdefault(chunking_key(s), []).append(s)
    # a group none of whose arms needs vectors is left to its arms: the launcher runs them as one batch
    # in one worker, which prepares once for them all (a prefetch would load it all twice)
    groups = {key: members for key, members in groups.items() if any(map(_needs_vectors, members))}
    if not groups:
        return
    todo = [s for members in groups.values() for s in members]
    names = [f"{m[0].queryset.name}/{m[0].chunker_name}" for m in groups.values()]
    log.info("preparing what %d arms share (%s) before launching them", len(todo), ", ".join(names))
    for name, members in zip(names, groups.values()):
        _quietly(name, _prefetch_group, members)


def _quietly(what: str, fn, *args) -> None:
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the arms redo this step and record what fails
        log.warning("prefetch of %s skipped (the arms will do it): %s", what, one_line(exc))


def _prefetch_group(members: list[RunSettings]) -> None:
    from hermes_eval.stages.judge import corpus_leaks_of
    from hermes_eval.stages.prepare import prepare

    s = members[0]
    cache = Cache(s.paths.cache)
    prepared = prepare(s, cache)
    corpus_leaks_of(prepared.queryset, prepared.indexed, s.hygiene, cache)
    if prepared.reuse is not None:  # snapshot sets embed per snapshot, inside the run
        return
    for arm in members:
        if _needs_vectors(arm):
            embedder = arm.embedder.build()
            embedder.embed_documents(leg_texts(prepared.chunks, "vector"))
            return
