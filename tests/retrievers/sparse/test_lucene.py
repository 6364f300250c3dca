"""Lucene 6.2 without Java (retrievers/sparse/lucene.py, blizzard.py): StandardAnalyzer on strings where
UAX#29 word boundaries are subtle, SmallFloat's one-byte norms against the Java algorithm written out here
with plain integers, the BM25 sum, and BLIZZARD's source normalization."""
from __future__ import annotations

import math
import struct

import pytest

from retrievers.sparse.blizzard import normalize_code
from retrievers.sparse.lucene import (ENGLISH_STOP_WORDS, NORM_TABLE, Lucene6BM25Index, StandardAnalyzer,
                                      byte315_to_float, decoded_length, encode_norm, first_words,
                                      float_to_byte315)

# (text, tokens): each row follows one rule of UAX#29 (Unicode 6.3, Lucene 6's StandardTokenizer) and the
# analyzer's filters; every row was also checked against Lucene 6.2.0 itself (OpenJDK 17)
CASES = [
    ("java.lang.String", ["java.lang.string"]),  # WB6/7: MidNumLet '.' between letters joins
    ("foo.bar() a.b a1.b2", ["foo.bar", "a.b", "a1", "b2"]),  # '1' before '.' is no letter: break
    ("1.2.3 3,000 v1.2 foo,bar x.1", ["1.2.3", "3,000", "v1.2", "foo", "bar", "x", "1"]),  # WB11/12 digits
    ("don't O'Reilly rock\u2019n\u2019roll 'quoted'", ["don't", "o'reilly", "rock\u2019n\u2019roll", "quoted"]),
    ("__init__ _foo foo_ snake_case_2 _", ["__init__", "_foo", "foo_", "snake_case_2"]),  # WB13a/b ExtendNumLet
    ("foo:bar http://x.org/a-b?c=d#e", ["foo:bar", "http", "x.org", "b", "c", "d", "e"]),  # ':' MidLetter
    ("user@example.com C++ C# -5", ["user", "example.com", "c", "c", "5"]),
    ("getUserPrincipal() XMLHttpRequest2 \u0130stanbul", ["getuserprincipal", "xmlhttprequest2", "istanbul"]),
    ("The quick AND the dead THIS is IT not no Such INTO their", ["quick", "dead"]),  # the 33 stop words
    ("\u4e2d\u6587 \u3072\u3089 \u30ab\u30bf\u30ab\u30ca \ud55c\uad6d\uc5b4", ["\u4e2d", "\u6587", "\u3072", "\u3089",
                                                                            "\u30ab\u30bf\u30ab\u30ca", "\ud55c\uad6d\uc5b4"]),
    ("e\u200bx a\ufeffb \u2460 \u00bd x\u00b2", ["e", "x", "a\ufeffb", "x"]),  # ZWSP breaks, BOM (Format) does not
    ("foo...bar a.b.c. .hidden", ["foo", "bar", "a.b.c", "hidden"]),
]


@pytest.mark.parametrize("text,tokens", CASES, ids=[c[0][:20] for c in CASES])
def test_standard_analyzer(text, tokens):
    assert StandardAnalyzer()(text) == tokens


def test_long_tokens_are_cut_at_255_and_stop_words_are_lucenes_33():
    assert StandardAnalyzer()("x" * 300 + " after") == ["x" * 255, "x" * 45, "after"]
    assert len(ENGLISH_STOP_WORDS) == 33 and StandardAnalyzer(stopwords=False)("the a") == ["the", "a"]


def _java_float_to_byte315(f: float) -> int:
    """SmallFloat.floatToByte315, line for line: bits = floatToRawIntBits(f); smallfloat = bits >> 21; ..."""
    bits = struct.unpack(">i", struct.pack(">f", f))[0]
    smallfloat = bits >> (24 - 3)
    if smallfloat <= ((63 - 15) << 3):
        return 0 if bits <= 0 else 1
    if smallfloat >= ((63 - 15) << 3) + 0x100:
        return 255  # (byte) -1
    return smallfloat - ((63 - 15) << 3)


def _java_byte315_to_float(b: int) -> float:
    if b == 0:
        return 0.0
    bits = (b << (24 - 3)) + ((63 - 15) << 24)
    return struct.unpack(">f", struct.pack(">i", bits))[0]


def _f32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def test_small_float_matches_the_java_algorithm():
    for length in [*range(0, 2000), 10_000, 123_456, 2 ** 31 - 1]:
        f = _f32(1.0 / _f32(math.sqrt(length))) if length else math.inf
        assert encode_norm(length) == _java_float_to_byte315(f) == float_to_byte315(f), length
    for b in range(256):
        assert byte315_to_float(b) == _java_byte315_to_float(b)
    # known values: length 1 -> 124 (1.0), 425 -> 106 (read in the shipped tomcat70 index), empty -> 255
    assert (encode_norm(1), encode_norm(4), encode_norm(425), encode_norm(0)) == (124, 120, 106, 255)
    assert decoded_length(1) == 1.0 and decoded_length(4) == 4.0
    assert decoded_length(425) == pytest.approx(455.1111, abs=1e-3)  # quantized: 425 tokens read as 455
    assert NORM_TABLE[0] == pytest.approx(1 / NORM_TABLE[255])


def test_bm25_score_is_lucenes_formula_with_quantized_lengths():
    docs = ["alpha beta beta gamma", "alpha " * 30 + "delta", "beta gamma delta epsilon zeta"]
    index = Lucene6BM25Index()
    index.build(["d0", "d1", "d2"], docs)
    lengths = [4, 31, 5]
    avgdl = _f32(sum(lengths) / 3)

    def score(doc: int, terms: list[str]) -> float:
        total = 0.0
        for t in terms:
            toks = docs[doc].split()
            tf, n = toks.count(t), sum(1 for d in docs if t in d.split())
            if tf:
                idf = math.log(1 + (3 - n + 0.5) / (n + 0.5))
                norm = 1.2 * (0.25 + 0.75 * decoded_length(lengths[doc]) / avgdl)
                total += idf * 2.2 * tf / (tf + norm)
        return total

    ranked = index.rank("beta beta alpha")  # a repeated term counts twice
    assert [d for d, _ in ranked] == sorted(range(3), key=lambda d: -score(d, ["beta", "beta", "alpha"]))
    for d, s in ranked:
        assert s == pytest.approx(score(d, ["beta", "beta", "alpha"]), rel=1e-6)
    assert index.search(["zeta"], 5) == [[("d2", pytest.approx(score(2, ["zeta"]), rel=1e-6))]]


def test_ties_rank_in_document_order_and_long_queries_are_cut_or_refused():
    index = Lucene6BM25Index(max_clauses=3)
    index.build(["b", "a", "c"], ["same words here", "same words here", "other"])
    assert [d for d, _ in index.rank("words")] == [0, 1]  # Lucene: doc ids; search(): by id
    assert [h[0] for h in index.search(["words"], 2)[0]] == ["a", "b"]
    assert index.rank("one two three four") == []  # over the clause limit: Lucene's ParseException, no results
    assert first_words(" a b,c d", 3) == " a b"  # Java's split: a leading separator is an empty first word
    cut = Lucene6BM25Index(max_query_words=2, max_clauses=3)
    cut.build(["x"], ["one two"])
    assert cut.clauses("one two three four") == ["one", "two"]


def test_blizzard_normalization():
    # words split at ASCII punctuation and digits; <= 2 characters, English stop words and Java keywords
    # dropped; camel-case words followed by their parts, which are not filtered
    assert normalize_code("public String getUserPrincipal(int x) { return readOnly_flag + 0xFF; }").split() == [
        "String", "getUserPrincipal", "readOnly", "flag", "xFF", "get", "User", "Principal", "read", "Only", "x", "FF"]
    assert normalize_code("0xA001 parseJSONData isOk").split() == ["parseJSONData", "isOk", "parse", "JSONData",
                                                                     "is", "Ok"]
