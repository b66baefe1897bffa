"""Markdown parser: ATX/setext headings, fenced code, front matter."""

from __future__ import annotations

from pipelines.parse import build_sections
from pipelines.parse.markdown import parse

DOC = """---
title: "Strata Operator Guide"
tags: [ops, ingest]
---
# Getting started ##

Strata ingests documents. Use `strata ingest` to start.

## Install

```bash
# this is a shell comment, not a heading
pip install strata
```

~~~
## also not a heading
~~~

Configuration
-------------

Set `workers` in the config file.

#hashtag is not a heading

    # indented code is not a heading

### [Linking](https://example.com) **Bold** and *emph*

Text under level 3.

Troubleshooting
===============

#

Look at the logs.
"""


def check_offsets(text, heads):
    for h in heads:
        assert 0 <= h.start < h.end <= len(text)
        assert text[h.start:h.end] == h.title
    doc = build_sections("d", text, heads, title="t", fmt="markdown")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    return doc


def test_headings_levels_and_title():
    text, heads, title = parse(DOC)
    assert title == "Strata Operator Guide"
    assert [(h.level, h.title) for h in heads] == [
        (1, "Getting started"),
        (2, "Install"),
        (2, "Configuration"),
        (3, "Linking Bold and emph"),
        (1, "Troubleshooting"),
    ]
    check_offsets(text, heads)


def test_markup_removed_and_code_kept():
    text, _, _ = parse(DOC)
    assert "title:" not in text and "---\n" not in text  # front matter skipped
    assert "# this is a shell comment, not a heading" in text  # fenced code kept verbatim
    assert "## also not a heading" in text
    assert "-------------" not in text and "=====" not in text  # setext underlines removed
    assert "#hashtag is not a heading" in text
    assert "Getting started ##" not in text


def test_section_paths():
    text, heads, _ = parse(DOC)
    doc = check_offsets(text, heads)
    paths = [s.path_str for s in doc.sections]
    assert paths == [
        "",
        "Getting started",
        "Getting started > Install",
        "Getting started > Configuration",
        "Getting started > Configuration > Linking Bold and emph",
        "Troubleshooting",
    ]
    install = doc.sections[2]
    assert "pip install strata" in install.text
    assert doc.sections[-1].text.endswith("Look at the logs.")


def test_unclosed_fence_hides_rest():
    text, heads, _ = parse("# A\n\n```\ncode\n# B\n")
    assert [h.title for h in heads] == ["A"]


def test_thematic_break_after_blank_is_not_heading():
    text, heads, _ = parse("Para one\nstill para\n---\n\nAfter\n\n---\n\nEnd\n")
    assert heads == []
    assert "Para one" in text


def test_list_item_before_dashes_is_not_setext():
    _, heads, _ = parse("- item\n---\n")
    assert heads == []


def test_no_front_matter_when_unclosed():
    text, heads, title = parse("---\nnot: yaml\n\n# Real\n")
    assert title is None
    assert [h.title for h in heads] == ["Real"]


def test_setext_heading_right_after_a_thematic_break():
    # polkit's NEWS.md: each release is a setext heading framed by rules (found by comparing with markdown-it-py)
    _, heads, _ = parse("Intro\n\n--------------\nPolicyKit 0.100\n--------------\n\nChanges.\n")
    assert [(h.level, h.title) for h in heads] == [(2, "PolicyKit 0.100")]


def test_html_comment_block_then_a_setext_heading():
    # commons-cli's README: a licence in an HTML comment (with === lines inside), then the title
    text, heads, _ = parse("<!--\n Licensed under the Apache License\nTitle in a box\n=====\n--->\n"
                           "Apache Commons CLI\n===================\n\nProvides an API.\n")
    assert [(h.level, h.title) for h in heads] == [(1, "Apache Commons CLI")]
    assert "Licensed under" in text
