"""One declared interface per plugin kind, and the ``conf/`` group whose presets build that kind.

Each protocol lives beside its implementations (``chunkers/base.py``, ``index.py``,
``embedders/base.py``, ``fusion/base.py``, ``rerankers/base.py``, ``expanders/base.py``); this
table is the one place that lists the kinds, so a shared test suite can check every preset and
every implementation of each.

"retriever" names two things, neither of them a kind: this package (``retrievers/``, the parts of
every kind), and the conf group ``conf/retriever``, whose presets are index *leg pairs*: a ``sparse``
and a ``dense`` index, either of which may be null (both are for ``http``, whose ``service`` is a
running search service, searched but not built). The group keeps its name because ``retriever`` is
a config key that every config hash holds; the kind its legs build is ``index``.
"""
from __future__ import annotations

from dataclasses import dataclass

from retrievers.chunkers.base import Chunker
from retrievers.embedders.base import Embedder
from retrievers.expanders.base import Expander
from retrievers.fusion.base import Fusion
from retrievers.index import Index
from retrievers.rerankers.base import Reranker


@dataclass(frozen=True)
class Kind:
    """A plugin kind: its protocol, the packages of its implementations and its config group (None for a
    kind no preset builds). A preset of the group is one part of the kind, or, when ``conf_slots`` names
    keys, holds one part (or null) under each of them.

    The harness adds kinds of its own to this table (``hermes_eval.querysets.kinds``: query generators and
    importers); this package never imports it."""

    name: str
    protocol: type
    packages: tuple[str, ...]
    conf_group: str | None
    conf_slots: tuple[str, ...] = ()


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("chunker", Chunker, ("retrievers.chunkers",), "chunker"),
    Kind("index", Index, ("retrievers.sparse", "retrievers.dense"), "retriever", conf_slots=("sparse", "dense")),
    Kind("embedder", Embedder, ("retrievers.embedders",), "embedder"),
    Kind("fusion", Fusion, ("retrievers.fusion",), "fusion"),
    Kind("reranker", Reranker, ("retrievers.rerankers",), "reranker"),
    Kind("expander", Expander, ("retrievers.expanders",), "expander"),
)}


def protocol_members(protocol: type) -> set[str]:
    """The attribute and method names a protocol declares (what an implementation must have)."""
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n, v in vars(protocol).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}
    return names


def missing_members(part: object, protocol: type) -> list[str]:
    """Members of ``protocol`` that ``part`` (an instance or a class) lacks; a class attribute,
    property, dataclass field or instance attribute counts, and no property is evaluated."""
    cls = part if isinstance(part, type) else type(part)
    have = set(dir(cls)) | set(getattr(cls, "__dataclass_fields__", {}))
    if not isinstance(part, type):
        have |= set(getattr(part, "__dict__", {}))
    return sorted(protocol_members(protocol) - have)
