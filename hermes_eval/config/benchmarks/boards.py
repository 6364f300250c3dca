"""Records merged by what they share: a board folder (:class:`Board`), an experiment (its sweeps)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from hermes_eval.config.benchmarks.field_measures import field_measures
from hermes_eval.config.benchmarks.load import benchmarks
from hermes_eval.config.benchmarks.record import Anchor, Benchmark, Sweep
from hermes_eval.core.errors import UserError


@dataclass(frozen=True)
class Board:
    """The records that share a board folder: its runs folder, extra columns and anchors."""

    name: str
    out: str
    records: tuple[Benchmark, ...]

    @property
    def runs(self) -> str:
        return f"runs/{self.name}"

    @property
    def columns(self) -> tuple[str, ...]:
        """Every measure a record of the board shows: the records' columns, then their fields' measures."""
        return tuple(dict.fromkeys([*(c for b in self.records for c in b.columns),
                                    *(m for b in self.records for m in field_measures(b.research_field))]))

    @property
    def shown(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(query set, the measures its markdown table shows: its record's :attr:`Benchmark.shown`)."""
        return tuple((name, b.shown) for b in self.records for name in b.ranked_sets)

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        return tuple(a for b in self.records for a in b.anchors)

    @property
    def limits(self) -> dict[str, int]:
        """What the board keeps of query text and gold code where its records ask for less than the
        defaults: per limit, the smallest any record gives (a record cannot make another's board larger)."""
        out: dict[str, int] = {}
        for b in self.records:
            for k, v in b.board_limits:
                out[k] = min(v, out.get(k, v))
        return out

    @property
    def main_scores(self) -> tuple[tuple[str, str], ...]:
        """(query set, its record's main score) for every variant and board set on the board: what ranks its
        table."""
        return tuple((name, b.main_score) for b in self.records for name in b.ranked_sets)


def boards(conf_dir: Path) -> dict[str, Board]:
    """Boards by name (the last part of their folder), their records in file-name order."""
    out: dict[str, list[Benchmark]] = {}
    for b in benchmarks(conf_dir).values():
        out.setdefault(b.board_name, []).append(b)
    for name, records in out.items():
        folders = sorted({b.board for b in records})
        if len(folders) > 1:
            raise UserError(f"boards {' and '.join(folders)} share the name {name!r}: rename one folder")
    return {n: Board(n, rs[0].board, tuple(rs)) for n, rs in out.items()}


def sweeps_by_experiment(records: Mapping[str, Benchmark]) -> dict[str, tuple[tuple[Benchmark, Sweep], ...]]:
    """Each experiment with the records' sweeps that make it, in record order; they must agree on
    everything but their overlays (one Hydra sweep is one product of its params)."""
    out: dict[str, list[tuple[Benchmark, Sweep]]] = {}
    for b in records.values():
        for s in b.sweeps:
            out.setdefault(s.experiment, []).append((b, s))
    same: Callable[[Benchmark, Sweep], tuple] = lambda b, s: (s.params, s.experiment_name, s.group, s.n_jobs,
                                                              b.board)  # noqa: E731
    for exp, parts in out.items():
        first_b, first = parts[0]
        for b, s in parts[1:]:
            if same(b, s) != same(first_b, first):
                raise UserError(f"{b.path} sweeps.{exp}: its params, experiment_name, group, n_jobs and board must "
                                f"be those of {first_b.path}'s (one experiment is one sweep onto one board)")
    return {k: tuple(v) for k, v in out.items()}
