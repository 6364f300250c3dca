"""One run as a chain of typed stages: prepare, build, search, judge, write (chain.py), plus fusion tuning."""
