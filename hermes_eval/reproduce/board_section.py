"""A reproduction's tables in its board's README, between markers, so that re-running replaces them."""
from __future__ import annotations

import re
from pathlib import Path

from hermes_eval.core.errors import UserError


def markers(name: str) -> tuple[str, str]:
    return (f"<!-- reproduce:{name} begin: written by `hermes-eval benchmark --reproduce`, do not edit -->",
            f"<!-- reproduce:{name} end -->")


def with_section(text: str, name: str, body: str) -> str:
    """``text`` with the section of reproduction ``name`` holding ``body`` (appended when it has none)."""
    begin, end = markers(name)
    block = f"{begin}\n\n{body.strip()}\n\n{end}"  # blank lines: the tables stay blocks of their own
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    found = pattern.findall(text)
    if len(found) > 1:
        raise UserError(f"README: reproduction {name!r} has {len(found)} sections between its markers; keep one")
    if found:
        return pattern.sub(lambda _: block, text)
    if begin.split(":")[0] in text and f"reproduce:{name} " in text:
        raise UserError(f"README: reproduction {name!r} has a begin or end marker without the other; restore "
                        f"both ({begin} ... {end})")
    return text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"


def write_section(readme: Path, name: str, body: str) -> bool:
    """Write ``body`` into ``readme``'s section for ``name``; True when the file changed."""
    old = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    new = with_section(old, name, body)
    if new != old:
        readme.parent.mkdir(parents=True, exist_ok=True)
        readme.write_text(new, encoding="utf-8")
    return new != old
