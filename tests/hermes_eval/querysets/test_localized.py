"""Kochhar et al.'s already-localized reports: a bug report that names a gold file, by path, file name or
the class a .java file is named after, is flagged; one that does not, or names only a word that is also a
short class name, is not."""
from __future__ import annotations

from hermes_eval.querysets.localized import LOCALIZED, NOT_LOCALIZED, flags, report_localized

GOLD = ["java/org/apache/catalina/connector/Request.java", "java/org/apache/coyote/http11/Http11Processor.java"]


def test_a_report_naming_a_gold_class_is_localized():
    found = report_localized("NPE in o.a.coyote.http11.Http11Processor.service when the client aborts", GOLD)
    assert found.symbols == ("Http11Processor",) and found.files == () and found.stratum == LOCALIZED


def test_a_gold_file_named_by_path_or_file_name_is_localized():
    assert report_localized("see connector/Request.java line 12", GOLD).files == (GOLD[0],)
    assert report_localized("patch for Http11Processor.java attached", GOLD).files == (GOLD[1],)


def test_a_report_naming_no_gold_class_is_not_localized():
    for text in ("the server hangs when a request body is chunked",  # 'request' as a word, not the class
                 "Http11ProcessorFactory leaks", "myRequest is null"):
        found = report_localized(text, GOLD)
        assert not found and found.stratum == NOT_LOCALIZED, text


def test_only_java_files_are_named_by_their_stem():
    assert not report_localized("the cache module breaks", ["src/cache.py"])
    assert report_localized("Cache breaks", ["src/p/Cache.java"]).symbols == ("Cache",)
    assert not report_localized("Io breaks", ["src/p/Io.java"])  # a two-letter class is any word


def test_flags_are_the_query_meta_the_board_reads():
    meta = flags(report_localized("Request.getParameter fails", GOLD))
    assert meta == {"already_localized": True, "localized_by": {"files": [], "symbols": ["Request"]},
                    "localized": LOCALIZED}
