"""parse_bytes end to end: decode → detect → parse → sections; bad input raises ParseError with a reason,
a parser bug raises ParserCrash (never disguised as a malformed file)."""

from __future__ import annotations

import gzip
import random

import pytest

import pipelines.parse as parse_pkg
from pipelines.parse import ParsedDocument, ParseError, ParserCrash, parse_bytes


def check(doc: ParsedDocument) -> ParsedDocument:
    assert doc.sections[0].level == 0 and doc.sections[0].path == []
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
        assert s.doc_id == doc.doc_id
    return doc


def test_markdown_end_to_end():
    doc = check(parse_bytes(b"Intro line.\n\n# Install\n\nRun it.\n\n## Linux\n\napt install strata\n",
                            path="docs/README.md", doc_id="d1"))
    assert doc.format == "markdown" and doc.title == "Install"
    assert [s.path_str for s in doc.sections] == ["", "Install", "Install > Linux"]
    assert doc.sections[0].text == "Intro line."


def test_gzipped_man_page_title_from_th():
    raw = gzip.compress(b'.TH GREP 1 2023\n.SH NAME\ngrep \\- print lines\n.SH "SEE ALSO"\n.BR sed (1)\n')
    doc = check(parse_bytes(raw, path="man/man1/grep.1.gz", doc_id="g"))
    assert doc.format == "man" and doc.title == "GREP(1)"
    assert [s.title for s in doc.sections] == ["GREP(1)", "NAME", "SEE ALSO"]


def test_html_title_and_text():
    raw = b"<html><head><title>Page &amp; Co</title></head><body><h1>Top</h1><p>Hi</p></body></html>"
    doc = check(parse_bytes(raw, path="x/index.html", doc_id="h"))
    assert doc.title == "Page & Co" and doc.text == "Top\n\nHi"


def test_rst_txt_and_pod():
    doc = check(parse_bytes(b"Title\n=====\n\nBody.\n", path="_sources/a.rst.txt", doc_id="r"))
    assert doc.format == "rst" and doc.title == "Title"
    doc = check(parse_bytes(b"=head1 NAME\n\nFoo - bar\n\n=head1 USAGE\n\nfoo()\n", path="Foo.pod", doc_id="p"))
    assert doc.format == "pod" and doc.title == "Foo - bar"


def test_title_falls_back_to_file_name():
    doc = check(parse_bytes(b"just some words without any heading at all.\n", path="/a/b/notes.txt.gz",
                            doc_id="t"))
    assert doc.format == "text" and doc.title == "notes"
    assert doc.sections[0].title == "notes"


def test_latin1_text_file():
    raw = "Résumé of the café meeting, naïve approach, façade.\n".encode("latin-1")
    doc = check(parse_bytes(raw, path="minutes.txt", doc_id="l"))
    assert "Résumé of the café meeting" in doc.text


def test_utf16_bom_html():
    raw = "\ufeff<html><body><h2>Überblick</h2><p>Text</p></body></html>".encode("utf-16-le")
    doc = check(parse_bytes(raw, path="u.html", doc_id="u"))
    assert [s.title for s in doc.sections[1:]] == ["Überblick"]


@pytest.mark.parametrize(
    ("raw", "path", "why"),
    [
        (b"", "a.md", "empty"),
        (b" \n\t \r\n", "a.txt", "empty"),
        (b"package X;\nsub f { 1 }\n1;\n", "lib/X.pm", "empty"),  # no POD at all
        (b"<html><head><title>x</title></head><body><script>var a;</script></body></html>", "a.html", "empty"),
        (b".so man7/queue.7\n", "queue.3.gz", "empty"),  # man alias page renders nothing
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), "logo.md", "binary"),
        (b"\x7fELF\x02\x01\x01" + bytes(300), "bin/ls", "binary"),
        (gzip.compress(b"hello world " * 100)[:-30], "x.txt.gz", "malformed"),
        (b"x" * 2000, "big.txt", "too_large"),
    ],
)
def test_bad_input_reasons(raw, path, why):
    with pytest.raises(ParseError) as exc:
        parse_bytes(raw, path=path, doc_id="bad", max_bytes=1000)
    assert exc.value.reason == why


def test_gzip_bomb():
    bomb = gzip.compress(b"A" * 5_000_000, compresslevel=1)
    with pytest.raises(ParseError) as exc:
        parse_bytes(bomb, path="bomb.txt.gz", doc_id="b", max_bytes=1_000_000)
    assert exc.value.reason == "too_large"


def test_a_parser_bug_is_a_crash_not_a_malformed_file(monkeypatch):
    def boom(text):
        raise IndexError("list index out of range")

    monkeypatch.setitem(parse_pkg.PARSERS, "markdown", boom)
    with pytest.raises(ParserCrash) as exc:
        parse_bytes(b"# x\n", path="a.md", doc_id="d")
    assert not isinstance(exc.value, ParseError) and exc.value.reason == "parser_error"
    assert exc.value.detail == "parser crash (markdown): IndexError: list index out of range"
    assert isinstance(exc.value.__cause__, IndexError)


def test_a_decoder_bug_is_a_crash(monkeypatch):
    import pipelines.parse.decode as decode

    def boom(raw):
        raise KeyError("charset")

    monkeypatch.setattr(decode, "_decode_guess", boom)
    with pytest.raises(ParserCrash, match=r"parser crash \(decode\): KeyError"):
        parse_bytes("Caf\xe9 cr\xe8me".encode("latin-1"), path="a.txt", doc_id="d")


def test_a_crash_becomes_a_parser_error_row_in_the_pipeline(monkeypatch):
    """The ingest task reports a crash per file with reason ``parser_error`` (its own metric label and
    alert), not ``malformed``; a chunker crash too."""
    from pipelines.stages import parse_chunk

    def crash(raw, **_):
        raise ParserCrash(ZeroDivisionError("division by zero"), fmt="rst")

    monkeypatch.setattr(parse_chunk, "parse_bytes", crash)
    row = parse_chunk.process_file({"doc_id": "d", "source": "s", "path": __file__, "relpath": "x.rst", "size": 1,
                                    "mtime_ns": 0, "known_hash": ""}, tokenizer=None, config=None,
                                   max_file_bytes=10_000_000)
    assert (row["status"], row["reason"]) == ("failed", "parser_error")
    assert row["detail"] == "parser crash (rst): ZeroDivisionError: division by zero"


FUZZ_ALPHABET = list("ab Z9\n\n\t<>/=-#*`'\"\\.:;{}()[]|&") + [
    "<p>", "</div>", "<h1>", ".SH ", ".TH ", "\n.", "=head1 ", "=cut\n", "C<<", ">>", "```",
    "\n---\n", "\n===\n", ".ie n \\{\\\n", ".de X\n", "&#0;", "\\f(", "\\*(", "<!--"]
FUZZ_PATHS = ["a.md", "a.rst", "a.html", "a.txt", "a.1", "a.pod", "a.pm", "noext"]


def fuzz(rounds: int = 300, seed: int = 42) -> dict[str, int]:
    """Random markup soup through every parser: each input parses (checked) or is refused with a reason.
    A :class:`ParserCrash` is NOT caught: it fails the caller (the test) with the input that caused it."""
    rnd = random.Random(seed)
    seen: dict[str, int] = {}
    for _ in range(rounds):
        s = "".join(rnd.choice(FUZZ_ALPHABET) for _ in range(rnd.randint(1, 300)))
        for path in FUZZ_PATHS:
            try:
                check(parse_bytes(s.encode(), path=path, doc_id="f"))
                outcome = "ok"
            except ParseError as exc:
                outcome = exc.reason
            except ParserCrash as exc:
                raise AssertionError(f"{exc.detail} on {path} with input {s!r}") from exc
            seen[outcome] = seen.get(outcome, 0) + 1
    return seen


def test_garbage_never_crashes_a_parser():
    seen = fuzz()
    # markup soup is never binary, undecodable or a bad gzip; "malformed" would now mean a real verdict
    assert set(seen) <= {"ok", "empty"} and seen["ok"] > 1000, seen


def test_the_fuzz_test_fails_on_a_crash(monkeypatch):
    """Guard for the guard: a parser that crashes on some input makes :func:`fuzz` fail."""
    real = parse_pkg.PARSERS["pod"]

    def flaky(text):
        if "=head1" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real(text)

    monkeypatch.setitem(parse_pkg.PARSERS, "pod", flaky)
    with pytest.raises(AssertionError, match="parser crash \\(pod\\): RecursionError"):
        fuzz(rounds=50)
