"""The parts under test: chunkers, embedders, indexes, fusion, rerankers and pipelines.

Usable without the ``hermes_eval`` harness: a team can import a backend into its own service.
"""
