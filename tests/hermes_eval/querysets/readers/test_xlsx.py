"""The stdlib .xlsx reader: shared and inline strings, numbers as written, gaps as empty cells, the first
sheet found through the workbook's relations; and the minimal writer the test slices use reads back."""
from __future__ import annotations

import zipfile

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.querysets.readers.xlsx import read_rows, write_rows

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _excel_like(path):
    """A workbook laid out as Excel writes Ye et al.'s: shared strings, number cells, an unnamed column, a
    skipped cell (D2), the sheet under another part name."""
    sheet = (f'<worksheet xmlns="{MAIN}"><sheetData>'
             '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
             '<row r="2"><c r="A2" s="1"><v>56012</v></c><c r="B2" t="s"><v>3</v></c>'
             '<c r="E2" t="s"><v>4</v></c></row>'
             '<row r="3"/></sheetData></worksheet>')
    shared = (f'<sst xmlns="{MAIN}"><si><t>bug_id</t></si><si><t>summary</t></si><si><t>description</t></si>'
              '<si><r><t>Bug 56012 wrong </t></r><r><t>import</t></r></si><si><t>1:java/A.java</t></si></sst>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>'
                                      '<sheet name="bugs" sheetId="1" r:id="rId7"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId7" Type="x" Target="worksheets/bugs.xml"/></Relationships>')
        z.writestr("xl/worksheets/bugs.xml", sheet)
        z.writestr("xl/sharedStrings.xml", shared)


def test_reads_shared_strings_numbers_and_gaps(tmp_path):
    _excel_like(tmp_path / "b.xlsx")
    assert read_rows(tmp_path / "b.xlsx") == [["bug_id", "summary", "description"],
                                              ["56012", "Bug 56012 wrong import", "", "", "1:java/A.java"], []]


def test_written_rows_read_back_byte_for_byte_the_same(tmp_path):
    rows = [["id", "text & <tags>", ""], ["1", "  spaced  ", "", "x\ny"], []]
    write_rows(tmp_path / "a.xlsx", rows)
    write_rows(tmp_path / "b.xlsx", rows)
    assert read_rows(tmp_path / "a.xlsx") == [["id", "text & <tags>"], ["1", "  spaced  ", "", "x\ny"], []]
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes()


def test_not_a_workbook_is_one_line(tmp_path):
    (tmp_path / "x.xlsx").write_text("id,bug_id\n")
    with pytest.raises(UserError, match=r"x\.xlsx: not an \.xlsx workbook"):
        read_rows(tmp_path / "x.xlsx")
    with pytest.raises(UserError, match=r"cannot read the workbook"):
        read_rows(tmp_path / "missing.xlsx")
