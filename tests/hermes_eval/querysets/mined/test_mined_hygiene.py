"""Already localized: a message naming a gold file (path or file name) or a gold symbol (a definition
overlapping a gold span, in Python, JavaScript or Go)."""
from __future__ import annotations

from scripted_repo import APP, OPS_GUARDED

from hermes_eval.querysets.mined.hygiene import LOCALIZED, NOT_LOCALIZED, gold_symbols, localized

GO = "package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\ntype Ring struct {\n\tsize int\n}\n"


def test_gold_symbols_are_the_definitions_a_span_overlaps():
    assert gold_symbols(OPS_GUARDED, "python", "calc/ops.py", [(5, 5)]) == {"div"}
    assert gold_symbols(OPS_GUARDED, "python", "calc/ops.py", [(2, 2), (12, 12)]) == {"add", "mul"}
    assert gold_symbols(OPS_GUARDED, "python", "calc/ops.py", [(3, 4)]) == set()  # blank lines between
    assert gold_symbols(APP, "javascript", "web/app.js", [(2, 2), (6, 6)]) == {"greet", "farewell"}
    assert gold_symbols(GO, "go", "calc/ring.go", [(5, 5), (9, 9)]) == {"Add", "Ring"}
    assert gold_symbols("x = (", "python", "bad.py", [(1, 1)]) == set()  # unparsable: no symbols
    assert gold_symbols("a\n", "markdown", "README.md", [(1, 1)]) == set()


def test_files_by_path_or_name_symbols_as_identifiers():
    hit = localized("Trim names in app.js greetings", ["web/app.js"], ["greet"])
    assert hit.files == ("web/app.js",) and hit.symbols == () and hit.stratum == LOCALIZED
    assert localized("see web/app.js.", ["web/app.js"], []).files == ("web/app.js",)
    assert localized("Call Cart.checkout() twice", ["shop/cart.py"], ["checkout"]).symbols == ("checkout",)
    miss = localized("Trim greetings in mapp.js and appjs", ["web/app.js"], ["greet", "Greet"])
    assert not miss and miss.stratum == NOT_LOCALIZED
    assert not localized("Addition is exact again", ["calc/ops.py"], ["add"])  # case and whole word


def test_file_names_match_in_any_case_symbols_only_in_their_own():
    """Each case rule decided by case alone: the words are whole, only their case differs."""
    assert localized("Fix the crash in APP.JS on empty names", ["web/app.js"], []).files == ("web/app.js",)
    assert localized("Greeting broke in Web/App.js", ["web/app.js"], []).files == ("web/app.js",)
    assert localized("Make checkout retry once", ["shop/cart.py"], ["checkout"]).symbols == ("checkout",)
    assert localized("Make Checkout retry once", ["shop/cart.py"], ["checkout"]).symbols == ()
    assert localized("Make CHECKOUT retry once", ["shop/cart.py"], ["checkout"]).stratum == NOT_LOCALIZED
