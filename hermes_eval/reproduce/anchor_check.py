"""A record's anchors checked against the values its reproductions read from the files the anchors cite."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hermes_eval.config.benchmarks import Anchor, Benchmark
from hermes_eval.reproduce.kind import Published


@dataclass(frozen=True)
class Checked:
    """One anchor and the value read for it (None: no reproduction reads it)."""

    anchor: Anchor
    read: Published | None

    @property
    def digits(self) -> int:
        """The decimals the record types the value with (0.778: 3)."""
        text = repr(self.anchor.value)
        return len(text.split(".")[1]) if "." in text and "e" not in text else 0

    @property
    def agrees(self) -> bool | None:
        """The value read, rounded as typed, equals the record's (within half a unit of the last decimal)."""
        if self.read is None:
            return None
        return abs(self.read.value - self.anchor.value) <= 0.5 * 10 ** -self.digits + 1e-12

    def line(self, record: Benchmark) -> str:
        a, r = self.anchor, self.read
        if r is None:
            return f"{a.metric} {a.value} ({a.published}): no reproduction reads it"
        at = f"{r.file}" + (f" at {r.commit[:12]}" if r.commit else "")
        verdict = "agrees" if self.agrees else (f"DIFFERS: conf/benchmarks/{record.name}.yaml anchors, field 'value' "
                                                f"{a.value}: the file gives {r.value:.{self.digits}f}; correct it")
        return f"{a.metric} {a.value} ({', '.join(a.querysets)}{', ' + r.tool if r.tool else ''}): {r.value:.6f} from {at}: {verdict}"


def matches(anchor: Anchor, read: Published) -> bool:
    return (read.queryset in anchor.querysets and read.metric == anchor.metric
            and (read.tool is None or f"({read.tool})" in anchor.source))


def check(record: Benchmark, published: Sequence[Published]) -> list[Checked]:
    """Every anchor of ``record`` with the value read for it, in the record's order."""
    return [Checked(a, next((p for p in published if matches(a, p)), None)) for a in record.anchors]
