"""A part's declared identity: a name frozen when the part was first recorded, and a version."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

T = TypeVar("T")
ATTRIBUTE = "__part__"


@dataclass(frozen=True)
class PartId:
    """``name`` never changes when the code moves (existing parts keep the import path they had when
    their runs were first named); ``version`` is bumped when the part's outputs change; ``resources``
    are the data files it reads (word lists, stop lists, vocabularies, tables), whose contents join its
    key (:func:`retrievers.identity.key.part_key`)."""

    name: str
    version: int = 1
    resources: tuple[str, ...] = ()  # absolute paths

    def __str__(self) -> str:
        return f"{self.name}@{self.version}"


def declare(name: str, version: int = 1, resources: tuple[str, ...] = ()) -> Callable[[T], T]:
    """Class or function decorator: ``@declare("retrievers.fusion.WeightedRRF", version=1)``;
    ``resources``: data files the part reads, as paths relative to its module's folder."""
    if not name or not isinstance(version, int) or version < 1:
        raise ValueError(f"declare({name!r}, version={version!r}): a name and a version >= 1")

    def mark(obj: T) -> T:
        paths: tuple[str, ...] = ()
        if resources:
            folder = Path(sys.modules[obj.__module__].__file__ or "").resolve().parent
            paths = tuple(str(folder / r) for r in resources)
            missing = [p for p in paths if not Path(p).is_file()]
            if missing:
                raise FileNotFoundError(f"declare({name!r}): resource files not found: {missing}")
        setattr(obj, ATTRIBUTE, PartId(name, version, paths))
        return obj

    return mark


def declared(obj: Any) -> PartId | None:
    """The identity ``obj`` (a class, a decorated function or an instance) declares itself; a subclass
    that declares nothing of its own has none (it is not its parent)."""
    own = getattr(obj, "__dict__", {})
    if isinstance(obj, type) or ATTRIBUTE in own:  # a class, or a decorated function
        return own.get(ATTRIBUTE)
    return type(obj).__dict__.get(ATTRIBUTE)
