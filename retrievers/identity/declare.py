"""A part's declared identity: a name frozen when the part was first recorded, and a version."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

T = TypeVar("T")
ATTRIBUTE = "__part__"


@dataclass(frozen=True)
class PartId:
    """``name`` never changes when the code moves (existing parts keep the import path they had when
    their runs were first named); ``version`` is bumped when the part's outputs change."""

    name: str
    version: int = 1

    def __str__(self) -> str:
        return f"{self.name}@{self.version}"


def declare(name: str, version: int = 1) -> Callable[[T], T]:
    """Class or function decorator: ``@declare("retrievers.fusion.WeightedRRF", version=1)``."""
    if not name or not isinstance(version, int) or version < 1:
        raise ValueError(f"declare({name!r}, version={version!r}): a name and a version >= 1")

    def mark(obj: T) -> T:
        setattr(obj, ATTRIBUTE, PartId(name, version))
        return obj

    return mark


def declared(obj: Any) -> PartId | None:
    """The identity ``obj`` (a class, a decorated function or an instance) declares itself; a subclass
    that declares nothing of its own has none (it is not its parent)."""
    own = getattr(obj, "__dict__", {})
    if isinstance(obj, type) or ATTRIBUTE in own:  # a class, or a decorated function
        return own.get(ATTRIBUTE)
    return type(obj).__dict__.get(ATTRIBUTE)
