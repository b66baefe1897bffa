"""detect_format: extension first (.gz stripped), content sniffing otherwise."""

from __future__ import annotations

import pytest

from pipelines.parse import detect_format

RST = "Title\n=====\n\n.. note::\n\n   body\n"
MAN = '.\\" comment\n.TH LS 1 2022\n.SH NAME\nls \\- list\n'
POD = "=head1 NAME\n\nFoo - bar\n\n=cut\n"
HTML = "<!DOCTYPE html>\n<html><body><p>x</p></body></html>"
MD = "# Title\n\nSome *text*.\n"


@pytest.mark.parametrize(
    ("path", "text", "fmt"),
    [
        ("README.md", "plain", "markdown"),
        ("docs/guide.markdown.gz", "plain", "markdown"),
        ("a/intro.rst", "plain", "rst"),
        ("_sources/library/json.rst.txt", "plain", "rst"),
        ("x.rest", "plain", "rst"),
        ("Documentation/PCI/sysfs-pci.rst.gz", "plain", "rst"),
        ("page.html", "plain", "html"),
        ("page.HTM", "plain", "html"),
        ("page.xhtml", "plain", "html"),
        ("man/man1/ls.1.gz", MAN, "man"),
        ("man3/Archive::Tar.3perl.gz", MAN, "man"),
        ("openssl.1ssl", MAN, "man"),
        ("File::Spec.3pm", MAN, "man"),
        ("thing.man", "plain", "man"),
        ("perlgit.pod", "plain", "pod"),
        ("lib/Foo/Bar.pm", "package Foo;", "pod"),
        ("script.pl", "print 1;", "pod"),
        ("notes.txt", "Just some words.\n", "text"),
        ("LICENSE", "Copyright 2024\n\nPermission is granted.\n", "text"),
    ],
)
def test_by_extension(path, text, fmt):
    assert detect_format(path, text) == fmt


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        (HTML, "html"),
        ('<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x">\n<html>', "html"),
        ("  <html lang='en'><head></head><body>x</body></html>", "html"),
        (MAN, "man"),
        (".SH NAME\nfoo\n", "man"),
        (POD, "pod"),
        ("=pod\n\ntext\n", "pod"),
        (RST, "rst"),
        ("Intro\n-----\n\ntext\n\nUsage\n=====\n\nmore\n", "rst"),
        (MD, "markdown"),
        ("Text\n\n## Install\n\nrun\n", "markdown"),
        ("```python\nprint(1)\n```\n", "markdown"),
        ("Just a letter.\n\nRegards\n", "text"),
    ],
)
def test_sniffing(text, fmt):
    assert detect_format("noext", text) == fmt
    assert detect_format("file.txt", text) == fmt
    assert detect_format("file.txt.gz", text) == fmt


def test_numbered_file_without_roff_is_not_man():
    # log rotation: syslog.1 is not a man page
    assert detect_format("/var/log/syslog.1", "Jan 1 00:00:00 host kernel: boot\n") == "text"


def test_shell_comments_deep_in_text_are_not_markdown():
    text = ("This document lists publications.\n\n" + "Some entry text here.\n" * 200
            + "\n# Was Adams91, see also syncrefs.bib.\n@Book{x}\n")
    assert detect_format("RTFP.txt", text) == "text"
