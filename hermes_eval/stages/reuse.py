"""Whether a finished record may stand for a run now: the identities of its parts, as this tree computes
them, equal the ones it recorded.

A record's config hash names what is measured (the settings, every part by its declared name) and is
what boards and baselines show; it does not change when a part's code does. So a finished record is
reused only when, besides its hash, each part's identity is the same: declared names and versions,
resource files, library versions, the digest of its discrete probe output (chunks, ranked ids), and an
embedder's model files. Otherwise the arm runs again and says which part changed, e.g.
``chunker python_ast: PythonASTChunker 1→2``.
"""
from __future__ import annotations

from typing import Any

from hermes_eval.config.identity import PLACEMENT_KEYS
from hermes_eval.config.parts import instantiate_part
from hermes_eval.config.settings import RunSettings
from hermes_eval.core.errors import one_line
from retrievers.identity.key import config_identity, part_id
from retrievers.identity.libraries import library_versions
from retrievers.identity.names import targets

NO_PARTS = "its record holds no part identities (it was made before they were recorded)"


def _embedder_identity(s: RunSettings) -> dict:
    """An embedder's identity: its declared parts and libraries, and the string its caches are keyed by
    (model files' content hash, settings, code), which never holds a vector. Its scale-out (which machines
    encode) is not part of it."""
    node = {k: v for k, v in dict(s.embedder.node).items() if k not in PLACEMENT_KEYS}
    parts = [t for t in targets(node) if t is not None]
    return {"parts": [part_id(p) for p in parts],
            "libraries": list(library_versions(sorted({p.__module__ for p in parts}))),
            "key": str(s.embedder.build().identity)}


def _plain_identity(node: Any) -> dict:
    """A part with no probe of its own (fusion, reranker, expander): its declared parts and libraries."""
    return config_identity(dict(node), lambda: None).to_dict()


def part_identities(s: RunSettings) -> dict[str, dict]:
    """role -> identity of every part the run builds (``chunker``, each running leg, the embedder when a
    leg searches vectors, ``fusion``, ``reranker``, ``expander``), each with the preset name it came from.
    A part whose identity cannot be computed (a backend whose library is absent) records the error: such
    a record is never reused."""
    from hermes_eval.cache.indexes import leg_identity
    from hermes_eval.stages.prepare import chunker_code_identity

    out: dict[str, dict] = {}

    def add(role: str, preset: str | None, compute) -> None:
        try:
            out[role] = {"preset": preset or role, **compute()}
        except Exception as exc:  # noqa: BLE001 - the run itself reports the part's failure
            out[role] = {"preset": preset or role, "error": one_line(exc)}

    add("chunker", s.chunker_name, lambda: chunker_code_identity(s).to_dict())
    if s.service is None:
        from retrievers.legs import active_legs, needs_embedder

        legs = active_legs(s.legs, s.fusion.build())
        for leg in legs:
            node = dict(s.legs[leg].node)
            add(leg, s.legs[leg].name, lambda node=node: leg_identity(node, instantiate_part).to_dict())
        try:
            embeds = needs_embedder([s.legs[leg].build() for leg in legs], s.reranker.build() if s.reranker else None)
        except Exception:  # noqa: BLE001 - a part that cannot be built: its error is recorded above or by the run
            embeds = "dense" in legs
        if embeds:
            add("embedder", s.embedder.name, lambda: _embedder_identity(s))
        add("fusion", s.fusion.name, lambda: _plain_identity(s.fusion.node))
    for role, part in (("reranker", s.reranker), ("expander", s.expander)):
        if part is not None:
            add(role, part.name, lambda part=part: _plain_identity(part.node))
    return out


def _versions(parts: list[str]) -> dict[str, str]:
    return dict(p.rsplit("@", 1) for p in parts)


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _why(role: str, before: dict, now: dict) -> str | None:
    """What changed in one part's identity, in a few words; None when nothing did."""
    label = f"{role} {now.get('preset') or before.get('preset')}"
    if "error" in now or "error" in before:
        return f"{label}: identity unknown ({now.get('error') or before.get('error')})"
    if before.get("key") == now.get("key"):
        return None
    old, new = _versions(before.get("parts", [])), _versions(now.get("parts", []))
    bumped = [n for n in new if n in old and old[n] != new[n]]
    if bumped == list(new)[:1]:  # the preset's own part (its top-level _target_)
        return f"{label} {old[bumped[0]]}→{new[bumped[0]]}"
    if bumped:
        return f"{label}: {', '.join(f'{_short(n)} {old[n]}→{new[n]}' for n in bumped)}"
    if set(old) != set(new):
        return f"{label}: parts {sorted(map(_short, set(old) ^ set(new)))}"
    if before.get("libraries") != now.get("libraries"):
        was, got = set(before.get("libraries", [])), set(now.get("libraries", []))
        return f"{label}: libraries {', '.join(sorted(was - got))} → {', '.join(sorted(got - was))}"
    if before.get("resources") != now.get("resources"):
        return f"{label}: resource files changed"
    if before.get("python") != now.get("python"):
        return f"{label}: Python {before.get('python')} → {now.get('python')}"
    if before.get("probe") != now.get("probe"):
        return f"{label}: output on the probe changed (version still {', '.join(sorted(set(new.values())))})"
    return f"{label}: model files or settings changed"


def changed_parts(recorded: dict | None, now: dict[str, dict]) -> str | None:
    """Why a record with ``recorded`` part identities cannot stand for a run whose parts are ``now``;
    None when it can."""
    if not isinstance(recorded, dict):
        return NO_PARTS
    reasons = []
    for role in [*now, *(r for r in recorded if r not in now)]:
        if role not in recorded:
            reasons.append(f"{role} {now[role].get('preset')} added")
        elif role not in now:
            reasons.append(f"{role} {recorded[role].get('preset')} no longer built")
        elif (why := _why(role, recorded[role], now[role])) is not None:
            reasons.append(why)
    return "; ".join(reasons) or None
