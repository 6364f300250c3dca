"""Reproductions by name, each ``module:function`` implementing :class:`hermes_eval.reproduce.kind.Reproduction`
(imported when asked: each pulls its own heavy parts)."""
from __future__ import annotations

from importlib import import_module

from hermes_eval.core.errors import UserError
from hermes_eval.reproduce.kind import Reproduction

REPRODUCTIONS: dict[str, str] = {
    "blizzard_agreement": "hermes_eval.reproduce.blizzard_agreement:reproduce",
    "bench4bl_compare": "hermes_eval.reproduce.bench4bl_compare:reproduce",
    "ye_compare": "hermes_eval.reproduce.ye_compare:reproduce",
    "commit_bm25": "hermes_eval.reproduce.commit_bm25:reproduce",
}


def reproduction(name: str, where: str = "reproduce") -> Reproduction:
    """The registered reproduction ``name``; an unknown one is one line listing the known."""
    if name not in REPRODUCTIONS:
        raise UserError(f"{where}: no reproduction {name!r}; known: {', '.join(REPRODUCTIONS)} "
                        f"(hermes_eval/reproduce/registry.py)")
    module, _, function = REPRODUCTIONS[name].partition(":")
    return getattr(import_module(module), function)
