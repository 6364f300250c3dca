"""The toolkit's version: ``hermes_eval.__version__`` and every run record's ``hermes_eval_version``.

A module of its own so that the record writer (stages/chain.py) need not import the package's
``__init__``, which imports the API and through it the chain (an import circle)."""
__version__ = "0.1.0"
