"""`decide NAME --apply`: an ADOPT writes the config change it names and re-baselines the gates.

The decision spec says what adopting means (``apply:`` in conf/decision/NAME.yaml): a top-level
``key`` of a config file under conf/, set to the adopted arm's value of an ``override``, and the
``gates`` whose committed baselines must then be re-measured. The file is edited in place, one
line, comments kept; each gate is re-baselined with a reason that names the decision record; the
record gains an "Applied" section saying what changed.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from hermes_eval.core.errors import UserError


@dataclass(frozen=True)
class ApplySpec:
    file: str  # relative to conf/, e.g. fusion/rrf.yaml
    key: str  # a top-level key of that file
    override: str  # the arm override whose value is written, e.g. fusion.dense_weight
    gates: tuple[str, ...] = ()  # conf/gate/NAME.yaml re-baselined after the change


def parse_apply(raw: object, where: str) -> ApplySpec | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("file", "key", "override")):
        raise UserError(f"{where}: field 'apply' must map file, key and override to strings (and gates to a "
                        f"list); e.g. `apply: {{file: fusion/rrf.yaml, key: dense_weight, override: "
                        f"fusion.dense_weight, gates: [nightly]}}`")
    gates = raw.get("gates") or []
    if not isinstance(gates, list) or not all(isinstance(g, str) for g in gates):
        raise UserError(f"{where}: field 'apply.gates' must be a list of gate names, e.g. `[nightly, smoke]`")
    return ApplySpec(raw["file"], raw["key"], raw["override"], tuple(gates))


def arm_value(overrides: tuple[str, ...], key: str) -> str | None:
    """The value ``key=VALUE`` takes in ``overrides`` (the last one wins, as in Hydra)."""
    found = None
    for ov in overrides:
        name, _, value = ov.lstrip("+~").partition("=")
        if name == key:
            found = value
    return found


def set_key(path: Path, key: str, value: str) -> str:
    """Rewrite the top-level ``key:`` line of ``path`` to ``value`` (keeping a trailing comment);
    returns the old value."""
    try:
        text = path.read_text()
    except OSError:
        raise UserError(f"{path}: cannot read the file named by field 'apply.file'; fix the path "
                        f"(relative to conf/)") from None
    pattern = re.compile(rf"^{re.escape(key)}:[ \t]*(?P<old>[^#\n]*?)(?P<comment>[ \t]+#[^\n]*)?$", re.M)
    match = pattern.search(text)
    if match is None:
        raise UserError(f"{path}: no top-level key {key!r} (field 'apply.key'); name a key the file sets")
    new = text[:match.start()] + f"{key}: {value}{match.group('comment') or ''}" + text[match.end():]
    if yaml.safe_load(new).get(key) != yaml.safe_load(f"v: {value}")["v"]:
        raise UserError(f"{path}: writing {key}: {value} did not give that value; edit the file by hand")
    path.write_text(new)
    return match.group("old").strip()


def apply_decision(name: str, apply: ApplySpec | None, verdict: str, arm_overrides: tuple[str, ...],
                   conf_dir: Path, record: Path, rebaseline: Callable[[str, str], int]) -> list[str]:
    """Carry out an ADOPT; returns the lines added to the record (nothing for other verdicts)."""
    if verdict != "ADOPT":
        print(f"--apply: the verdict is {verdict}; nothing to apply")
        return []
    if apply is None:
        raise UserError(f"conf/decision/{name}.yaml: no field 'apply' says what adopting changes; add "
                        f"`apply: {{file: ..., key: ..., override: ..., gates: [...]}}`")
    value = arm_value(arm_overrides, apply.override)
    if value is None:
        raise UserError(f"conf/decision/{name}.yaml: the adopted arm sets no {apply.override!r} (field "
                        f"'apply.override'); name an override the arms set")
    target = Path(conf_dir) / apply.file
    old = set_key(target, apply.key, value)
    change = f"`conf/{apply.file}`: `{apply.key}` {old} -> {value}"
    print(f"applied: {change}")
    reason = f"decision {name} ADOPT ({apply.key}={value} in conf/{apply.file}): see {record.as_posix()}"
    lines = ["", "## Applied", "", f"- {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}: {change}"]
    for gate in apply.gates:
        code = rebaseline(gate, reason)
        if code != 0:
            raise UserError(f"re-baselining gate {gate!r} after applying {name} failed (exit {code}); the config "
                            f"change is written: fix the gate and run `hermes-eval gate --name {gate} "
                            f"--update-baseline --reason \"{reason}\"`")
        lines.append(f"- gate `{gate}` re-baselined (reports/baseline/{gate}.json), reason: {reason}")
    return lines
