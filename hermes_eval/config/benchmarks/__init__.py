"""Benchmark records: one declarative file per published benchmark, ``conf/benchmarks/NAME.yaml``.

A record says where the data comes from (a folder under the ``BENCH_DATA`` option, its source,
licence and provenance; SWE-bench also reads git mirrors under ``HERMES_MIRRORS``), which importer
reads it and with which options, its protocol variants (each one query set: the import's paths and
options, the corpus its runs index, and its overlays: ``+benchmark=NAME``, how it is chunked and
judged), the main score, the sweeps that run its arms, the board it belongs to (with the extra
columns it shows and, optionally, less query text, gold code and latency digits kept for it:
``board_limits``; and ``board_sets``, query sets its importer makes from the command line that the board
ranks and shows as it does the variants') and the published numbers set beside ours there (anchors), and
its test slice.

Everything else is derived from the records: the ``benchmark`` and benchmark ``experiment`` configs
(:mod:`hermes_eval.config.benchmark_overlays`), ``hermes-eval benchmark NAME`` and the
``datasets import`` usage, and the anchors of ``leaderboard --anchors BOARD``.

Strings may name ``{data}`` (the record's data folder), ``{name}`` (the variant's query set) and the
locations ``{BENCH_DATA}`` and ``{HERMES_MIRRORS}``: an import reads the folders given (option,
environment, default); an overlay keeps them as ``${oc.env:VAR,DEFAULT}`` for the run to resolve.
"""
from hermes_eval.config.benchmarks.boards import Board, boards, sweeps_by_experiment
from hermes_eval.config.benchmarks.field_measures import FIELD_MEASURES, field_measures
from hermes_eval.config.benchmarks.load import RECORDS, benchmark, benchmarks, load
from hermes_eval.config.benchmarks.locations import LOCATIONS, Location, expand, for_import, for_runs
from hermes_eval.config.benchmarks.parse import option_word, parse
from hermes_eval.config.benchmarks.record import (AVERAGES, BOARD_LIMIT_NAMES, Anchor, Benchmark, Corpus, Data, Overlay,
                                                  Sweep, Variant)

__all__ = ["AVERAGES", "BOARD_LIMIT_NAMES", "FIELD_MEASURES", "LOCATIONS", "RECORDS", "Anchor", "Benchmark", "Board",
           "Corpus", "Data", "Location", "Overlay", "Sweep", "Variant", "benchmark", "benchmarks", "boards", "expand",
           "field_measures", "for_import", "for_runs", "load", "option_word", "parse", "sweeps_by_experiment"]
