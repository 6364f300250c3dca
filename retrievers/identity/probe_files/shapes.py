"""Geometric shapes with areas and a registry (probe input: fixed text every chunker is run on)."""
from __future__ import annotations

import math
from dataclasses import dataclass

# the registry of shape constructors, filled by the decorator below
REGISTRY: dict[str, type] = {}


def register(cls: type) -> type:
    """Add ``cls`` to the registry under its lower-cased name."""
    REGISTRY[cls.__name__.lower()] = cls
    return cls


@register
@dataclass(frozen=True)
class Circle:
    """A circle given by its radius."""

    radius: float

    def area(self) -> float:
        """pi r squared; a negative radius is an error."""
        if self.radius < 0:
            raise ValueError(f"negative radius {self.radius}")
        value = math.pi * self.radius ** 2
        return round(value, 6)

    def scaled(self, factor: float) -> "Circle":
        return Circle(self.radius * factor)


@register
@dataclass(frozen=True)
class Rectangle:
    """An axis-aligned rectangle."""

    width: float
    height: float

    def area(self) -> float:
        return self.width * self.height

    def diagonal(self) -> float:
        """Length of the diagonal, by Pythagoras."""
        squares = self.width ** 2 + self.height ** 2
        root = math.sqrt(squares)
        return root


def total_area(shapes: list) -> float:
    """Sum of the areas of ``shapes``, skipping any without an ``area`` method."""
    total = 0.0
    for shape in shapes:
        measure = getattr(shape, "area", None)
        if measure is None:
            continue
        total += measure()
    return total


def parse(spec: str):
    # "circle 2" or "rectangle 3 4": the name picks the class, the numbers are its fields
    name, *numbers = spec.split()
    cls = REGISTRY[name]
    return cls(*map(float, numbers))
