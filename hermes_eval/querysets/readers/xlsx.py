"""The first sheet of an ``.xlsx`` workbook as rows of text, with the standard library only (zipfile and
ElementTree; no spreadsheet package is a dependency). Enough for the data tables benchmarks release as
spreadsheets (Ye et al.'s bug reports): shared and inline strings, numbers as written, empty cells as
``""``; no formulas evaluated, no dates converted (a date-formatted number stays its serial number).

The workbook is a file, or ``git:REPO@REV:PATH``, a file of a local clone or bare mirror at one commit
(read with ``git cat-file``, no work tree needed). :func:`write_rows` writes the minimal workbook that
:func:`read_rows` reads back: test slices keep a few rows of a release in its own format.
"""
from __future__ import annotations

import io
import re
import subprocess
import zipfile
from pathlib import Path
from typing import Sequence
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

from hermes_eval.core.errors import UserError

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_T = f"{{{MAIN}}}t"
_COLUMN = re.compile(r"[A-Z]+")
GIT = "git:"


def _column(ref: str) -> int:
    """``"K12"`` -> 10 (0-based column of a cell reference)."""
    n = 0
    for ch in _COLUMN.match(ref).group(0):
        n = n * 26 + ord(ch) - 64
    return n - 1


def parse_git(spec: str) -> tuple[Path, str, str]:
    """``git:REPO@REV:PATH`` -> (repository, revision, path inside it); one line when a part is missing."""
    body = spec[len(GIT):]
    repo, at, rest = body.rpartition("@")
    rev, colon, path = rest.partition(":")
    if not (at and repo and rev and colon and path):
        raise UserError(f"{spec!r}: write git:REPO@REV:PATH (a clone or mirror, a commit, the file's path in it)")
    return Path(repo).expanduser(), rev, path


def read_bytes(source: str | Path) -> bytes:
    """The bytes of a file, or of ``git:REPO@REV:PATH``; one line saying what is missing otherwise."""
    text = str(source)
    if text.startswith(GIT):
        repo, rev, path = parse_git(text)
        if not repo.exists():
            raise UserError(f"{text}: repository {repo} does not exist; mirror it there first (git clone --mirror)")
        proc = subprocess.run(["git", "-C", str(repo), "cat-file", "blob", f"{rev}:{path}"], capture_output=True)
        if proc.returncode != 0:
            said = proc.stderr.decode(errors="replace").strip().splitlines()
            raise UserError(f"{text}: {path} is not in {repo} at {rev} ({said[-1] if said else 'git cat-file failed'})"
                            f"; fetch that commit into the mirror or fix the path")
        return proc.stdout
    try:
        return Path(text).read_bytes()
    except OSError as exc:
        raise UserError(f"{text}: cannot read the workbook ({type(exc).__name__})") from None


def _sheet_path(z: zipfile.ZipFile) -> str:
    """The first worksheet's part (its id in the workbook, resolved through the workbook's relations)."""
    names = set(z.namelist())
    if "xl/workbook.xml" in names and "xl/_rels/workbook.xml.rels" in names:
        book = ET.fromstring(z.read("xl/workbook.xml"))
        sheet = book.find(f"{{{MAIN}}}sheets/{{{MAIN}}}sheet")
        rid = sheet.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id") \
            if sheet is not None else None
        for rel in ET.fromstring(z.read("xl/_rels/workbook.xml.rels")):
            if rel.get("Id") == rid:
                target = rel.get("Target", "").lstrip("/")
                target = target if target.startswith("xl/") else f"xl/{target}"
                if target in names:
                    return target
    if "xl/worksheets/sheet1.xml" in names:
        return "xl/worksheets/sheet1.xml"
    raise UserError("the workbook has no worksheet (xl/worksheets/sheet1.xml)")


def read_rows(source: str | Path) -> list[list[str]]:
    """Every row of the first sheet, each a list of cell texts up to its last non-empty cell."""
    try:
        z = zipfile.ZipFile(io.BytesIO(read_bytes(source)))
        shared: list[str] = []
        if "xl/sharedStrings.xml" in z.namelist():
            shared = ["".join(t.text or "" for t in si.iter(_T))
                      for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall(f"{{{MAIN}}}si")]
        sheet = ET.fromstring(z.read(_sheet_path(z)))
    except (zipfile.BadZipFile, KeyError, ET.ParseError) as exc:
        raise UserError(f"{source}: not an .xlsx workbook ({type(exc).__name__}: {exc})") from None
    rows: list[list[str]] = []
    for r in sheet.iter(f"{{{MAIN}}}row"):
        cells: dict[int, str] = {}
        for i, c in enumerate(r.findall(f"{{{MAIN}}}c")):
            ref, kind, v = c.get("r"), c.get("t"), c.find(f"{{{MAIN}}}v")
            col = _column(ref) if ref else i
            if kind == "inlineStr":
                cells[col] = "".join(t.text or "" for t in c.iter(_T))
            elif v is None or v.text is None:
                cells[col] = ""
            elif kind == "s":
                cells[col] = shared[int(v.text)]
            else:
                cells[col] = v.text
        rows.append([cells.get(i, "") for i in range(max(cells) + 1)] if cells else [])
    return rows


def _letters(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'officeDocument" Target="xl/workbook.xml"/></Relationships>'),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<workbook xmlns="{MAIN}" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
}


def write_rows(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """A minimal one-sheet workbook of ``rows`` (every cell an inline string, empty cells left out), with
    fixed timestamps: the same rows give the same bytes."""
    body = []
    for i, row in enumerate(rows, start=1):
        cells = "".join(f'<c r="{_letters(j)}{i}" t="inlineStr"><is><t xml:space="preserve">{escape(str(v))}'
                        f'</t></is></c>' for j, v in enumerate(row) if str(v) != "")
        body.append(f'<row r="{i}">{cells}</row>')
    sheet = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{MAIN}"><sheetData>'
             f'{"".join(body)}</sheetData></worksheet>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in [*_PARTS.items(), ("xl/worksheets/sheet1.xml", sheet)]:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
