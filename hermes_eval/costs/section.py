"""What every bench's section of reports/costs.md starts with: a markdown table row, and the one line that
stands for a bench that was skipped or failed."""
from __future__ import annotations


def table_row(cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def stand_in(title: str, r: dict | None) -> list[str] | None:
    """The section of a bench with no result (none), an error or a skip reason; None when it has rows."""
    if not r:
        return []
    if "error" in r or "skipped" in r:
        return ["", f"## {title}: {r.get('error') or 'skipped: ' + r['skipped']}"]
    return None
