"""hermes-eval: the harness that measures hybrid code retrieval."""
__version__ = "0.1.0"
