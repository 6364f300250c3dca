"""A record's mapping read field by field: missing fields, unknown fields and wrong types are one-line errors."""
from __future__ import annotations

from typing import Any

from hermes_eval.core.errors import UserError


class Fields:
    """A record's mapping read field by field; unknown fields and wrong types are one-line errors."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise UserError(f"{where}: expected a mapping, got {type(data).__name__}")
        self.data, self.where, self.read = data, where, set()

    def get(self, key: str, kind: type | tuple = str, default: Any = ...) -> Any:
        self.read.add(key)
        if key not in self.data or self.data[key] is None:
            if default is ...:
                raise UserError(f"{self.where}: field {key!r} is missing: add it")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind in (int, float, (int, float)):
            raise UserError(f"{self.where}: field {key!r} must be {_kind(kind)}, got {value!r}")
        return value

    def words(self, key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        value = self.get(key, (list, str), list(default))
        return (value,) if isinstance(value, str) else tuple(str(v) for v in value)

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            raise UserError(f"{self.where}: unknown field {unknown[0]!r}; fields: {', '.join(sorted(self.read))}")


def _kind(kind: type | tuple) -> str:
    names = {str: "text", int: "an integer", float: "a number", bool: "true or false", list: "a list",
             dict: "a mapping"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)
