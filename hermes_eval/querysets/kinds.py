"""Every plugin kind, the harness's own included: retrievers' table (``retrievers.kinds``: the parts
under test) extended with the two kinds that make query sets. retrievers never imports hermes_eval, so
the extension lives here.

- ``generator``: a :class:`QueryGenerator`, built from the ``generator`` of a ``conf/queryset`` preset
  (one per module of ``querysets/generators``);
- ``importer``: an :class:`Importer` (a module with its ``Options`` and ``run``), one per benchmark in
  ``querysets/importers``, named on the command line (``hermes-eval datasets import NAME``), not by a
  conf group.
"""
from __future__ import annotations

from hermes_eval.querysets.generators.base import QueryGenerator
from hermes_eval.querysets.importers.base import Importer
from retrievers.kinds import KINDS as PART_KINDS
from retrievers.kinds import Kind

QUERYSET_KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("generator", QueryGenerator, ("hermes_eval.querysets.generators",), "queryset", conf_slots=("generator",)),
    Kind("importer", Importer, ("hermes_eval.querysets.importers",), None),
)}

KINDS: dict[str, Kind] = {**PART_KINDS, **QUERYSET_KINDS}
