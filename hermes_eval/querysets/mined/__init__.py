"""A repository's history as a query set: each commit's message is a change request, its gold the
old-side lines it changes at its first parent (``hermes-eval datasets mine SOURCE``).

One module per concern: ``commits`` walks the first-parent history, ``message`` cleans a message
(trailers off), ``changes`` reads a commit's diff into files and gold lines, ``filters`` is the
registry of reasons a commit is left out, ``hygiene`` flags queries that already name their gold,
``mine`` holds the options and the run.
"""
