"""reStructuredText parser: adornment styles → levels, transitions and tables ignored."""

from __future__ import annotations

from pipelines.parse import build_sections
from pipelines.parse.rst import parse

# Condensed from python3.11-doc: library/json.rst.txt
PY_JSON = """:mod:`json` --- JSON encoder and decoder
========================================

.. module:: json
   :synopsis: Encode and decode the JSON format.

**Source code:** :source:`Lib/json/__init__.py`

--------------

`JSON (JavaScript Object Notation) <https://json.org>`_, specified by
:rfc:`7159` (which obsoletes :rfc:`4627`), is a lightweight data interchange format.

Encoding basic Python object hierarchies::

    >>> import json
    >>> json.dumps(['foo', {'bar': ('baz', None, 1.0, 2)}])
    '["foo", {"bar": ["baz", null, 1.0, 2]}]'

Basic Usage
-----------

.. function:: dump(obj, fp, *, skipkeys=False)

   Serialize *obj* as a JSON formatted stream to *fp*.

Encoders and Decoders
---------------------

.. class:: JSONDecoder(*, object_hook=None)

   Simple JSON decoder.

Standard Compliance and Interoperability
----------------------------------------

Character Encodings
^^^^^^^^^^^^^^^^^^^

The RFC requires that JSON be represented using either UTF-8, UTF-16, or UTF-32.

Infinite and NaN Number Values
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

The RFC does not permit the representation of infinite or NaN number values.

Command Line Interface
----------------------

Source code: ``Lib/json/tool.py``
"""

# From linux-doc: Documentation/fb/uvesafb.rst and PCI/endpoint/function/binding/pci-test.rst
LINUX = """.. SPDX-License-Identifier: GPL-2.0

==========================================================
uvesafb - A Generic Driver for VBE2+ compliant video cards
==========================================================

1. Requirements
---------------

uvesafb should work with any video card that has a Video BIOS compliant
with the VBE 2.0 standard.

3. Configuration
----------------

Accepted options:

======= =========================================================
ypan    Enable display panning using the VESA protected mode
	interface.

redraw  Scroll by redrawing the affected part of the screen, this
	is the default on non-x86.
======= =========================================================

+------------+------------+
| Header 1   | Header 2   |
+============+============+
| body row 1 | column 2   |
+------------+------------+

Configurable Fields:

================   ============================================
vendorid	   should be 0x104c
deviceid	   should be 0xb500 for DRA74x
================   ============================================

Sysfs
=====

uvesafb provides several sysfs nodes for configurable parameters.
"""


def headings(src):
    text, heads, _ = parse(src)
    for h in heads:
        assert text[h.start:h.end] == h.title
    doc = build_sections("d", text, heads, title="t", fmt="rst")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    return text, [(h.level, h.title) for h in heads], doc


def test_python_doc_levels_and_cleaned_titles():
    text, heads, doc = headings(PY_JSON)
    assert heads == [
        (1, "json --- JSON encoder and decoder"),
        (2, "Basic Usage"),
        (2, "Encoders and Decoders"),
        (2, "Standard Compliance and Interoperability"),
        (3, "Character Encodings"),
        (3, "Infinite and NaN Number Values"),
        (2, "Command Line Interface"),
    ]
    paths = [s.path_str for s in doc.sections]
    assert ("json --- JSON encoder and decoder > Standard Compliance and Interoperability > "
            "Character Encodings") in paths
    # adornments removed, transition and body/directives kept
    assert "=====" not in text and "^^^^" not in text
    assert "Basic Usage\n---" not in text and "Basic Usage\n\n.. function::" in text
    assert "--------------" in text  # the transition line is body text, not a heading
    assert ".. function:: dump(obj, fp, *, skipkeys=False)" in text
    assert ">>> import json" in text


def test_linux_overline_title_and_tables_not_headings():
    text, heads, _ = headings(LINUX)
    assert heads == [
        (1, "uvesafb - A Generic Driver for VBE2+ compliant video cards"),
        (2, "1. Requirements"),
        (2, "3. Configuration"),
        (3, "Sysfs"),
    ]
    assert "ypan    Enable display panning" in text
    assert "| body row 1 | column 2   |" in text


def test_levels_follow_first_appearance_of_style():
    src = "Top\n###\n\nA\n***\n\nB\n===\n\nC\n***\n\nD\n###\n"
    _, heads, _ = headings(src)
    assert heads == [(1, "Top"), (2, "A"), (3, "B"), (2, "C"), (1, "D")]


def test_overline_style_differs_from_underline_only():
    src = "=====\nTitle\n=====\n\nSub\n=====\n\ntext\n"
    _, heads, _ = headings(src)
    assert heads == [(1, "Title"), (2, "Sub")]


def test_short_underline_tolerance():
    _, heads, _ = headings("Installation\n==========\n\ntext\n")  # 10 for 12: accepted
    assert heads == [(1, "Installation")]
    _, heads, _ = headings("Installation guide\n==\n\ntext\n")  # far too short
    assert heads == []


def test_transition_between_paragraphs_is_not_heading():
    _, heads, _ = headings("Para one.\n\n----------\n\nPara two.\n")
    assert heads == []


def test_paragraph_continuation_is_not_heading():
    # a title needs a blank line (or a title) before it
    _, heads, _ = headings("Some paragraph line\nanother line\n-------------------\n")
    assert heads == []


def test_title_directive():
    _, _, title = parse(".. title:: The Real Title\n\nHeading\n=======\n\nx\n")
    assert title == "The Real Title"
