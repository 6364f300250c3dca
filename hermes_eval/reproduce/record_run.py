"""A record's reproductions run (``hermes-eval benchmark NAME --reproduce``): each one's tables written into its
board's README section, and the record's anchors checked against the values it read from the cited files."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from hermes_eval.config.benchmarks import Benchmark
from hermes_eval.core.errors import UserError
from hermes_eval.reproduce.anchor_check import Checked, check
from hermes_eval.reproduce.board_section import write_section
from hermes_eval.reproduce.kind import Outcome, Request
from hermes_eval.reproduce.registry import reproduction


@dataclass(frozen=True)
class Reproduced:
    """One reproduction of a record: its outcome, the README it wrote, the anchors."""

    outcome: Outcome | None  # None: it could not run (``error``)
    readme: Path
    anchors: tuple[Checked, ...]
    error: str = ""  # why it could not run (``keep_going``)

    @property
    def differs(self) -> bool:
        return any(c.agrees is False for c in self.anchors)


def readme_of(record: Benchmark, root: Path = Path(".")) -> Path:
    """The board's README: the page beside its leaderboard that holds the reproductions' tables."""
    return root / record.board / "README.md"


def reproduce_record(record: Benchmark, data: Path | None = None, root: Path = Path("."),
                     say: Callable[[str], None] = print, keep_going: bool = False) -> list[Reproduced]:
    """Run every reproduction ``record`` names, in order; ``data``: a folder to read instead of its data folder
    (``keep_going``: one that cannot run is reported and the others run)."""
    out = []
    for entry in record.reproductions:
        options = dict(entry.options)
        variant = options.pop("variant", None)
        say(f"[reproduce] {record.name}: {entry.name}" + "".join(f" {k}={v}" for k, v in entry.options))
        try:
            outcome = reproduction(entry.name, f"conf/benchmarks/{record.name}.yaml reproductions")(
                Request(record, variant, (), data, tuple(options.items())))
        except UserError as e:
            if not keep_going:
                raise
            say(f"[reproduce] {entry.name}: could not run: {e}")
            out.append(Reproduced(None, readme_of(record, root), (), str(e)))
            continue
        readme = readme_of(record, root)
        changed = write_section(readme, entry.name, outcome.markdown)
        checked = tuple(c for c in check(record, outcome.published) if c.read is not None)
        for c in checked:
            say(f"[anchor] {c.line(record)}")
        say(f"[reproduce] {entry.name}: {len(outcome.per_query)} queries; {readme} "
            f"{'updated' if changed else 'unchanged'}")
        out.append(Reproduced(outcome, readme, checked))
    return out


def exit_code(done: Sequence[Reproduced]) -> int:
    """2 when a reproduction could not run, 1 when an anchor differs from the file it cites, else 0."""
    return 2 if any(r.error for r in done) else 1 if any(r.differs for r in done) else 0
