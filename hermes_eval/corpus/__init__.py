"""Corpora: resolve a spec (folder, ``pkg:NAME``, ``pypi:NAME==VERSION``, ``npm:NAME@VERSION``,
``deb:PACKAGE=VERSION``, ``git:PATH@COMMIT``), scan, fingerprint."""
from hermes_eval.core.corpus import Corpus, CorpusFile
from hermes_eval.corpus.scan import load_corpus

__all__ = ["Corpus", "CorpusFile", "load_corpus"]
