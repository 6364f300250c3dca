"""Words a command has no place for, refused in one line: a ``key=value`` word on a command whose options are all
flags names the closest flags (``leaderboard baseline=X`` -> ``--baseline``), never Hydra's ``+key``."""
from __future__ import annotations

import argparse
from typing import Sequence

from hermes_eval.config.known_keys import closest
from hermes_eval.core.errors import UserError


def flags(parser: argparse.ArgumentParser) -> list[str]:
    """The long options ``parser`` takes (``--runs``, ``--baseline``, ...)."""
    return sorted(o for action in parser._actions for o in action.option_strings if o.startswith("--"))


def refusal(parser: argparse.ArgumentParser, command: str, extra: Sequence[str]) -> UserError:
    """The one-line error for the first of ``extra`` (words ``parser`` did not take)."""
    known = [f for f in flags(parser) if f != "--help"]
    word = next((w for w in extra if "=" in w and not w.startswith("-")), None)
    if word is None:
        return UserError(f"{command}: unrecognized arguments: {' '.join(extra)}; its options: {', '.join(known)}")
    key = word.split("=", 1)[0].lstrip("+~")
    names = {f[2:].replace("-", "_"): f for f in known}  # --stat-test is stat_test=
    near = [names[m] for m in closest(key.replace("-", "_"), names)]
    hint = f"closest: {', '.join(near)}" if near else f"its options: {', '.join(known)}"
    return UserError(f"{command}: {word.lstrip('+~')}: no such option ({command} takes no key=value words); {hint}")
