"""Query sets mined from a repository's commits: each commit's message is a change request, its gold the
old-side lines it changes at its first parent (``hermes-eval datasets mine SOURCE``); and Gandhi et al.'s
commits (``gandhi``), judged the same way. Named ``mined`` (it was ``history``, which now names only the
change-request board, reports/benchmarks/history).

One module per concern: ``commits`` walks the first-parent history, ``message`` cleans a message
(trailers off), ``changes`` reads a commit's diff into files and gold lines, ``filters`` is the
registry of reasons a commit is left out, ``hygiene`` flags queries that already name their gold,
``mine`` holds the options and the run; each set's snapshots are built by ``querysets/snapshot_set.py``.
"""
