"""Plain-text heading detector: recall on real heading styles, precision on ordinary prose."""

from __future__ import annotations

from pipelines.parse import build_sections
from pipelines.parse.text import parse, score_line, THRESHOLD

GUIDE = """STRATA OPERATIONS MANUAL

This manual explains how to install, configure and operate a Strata
cluster. It is written for operators who run the ingestion jobs.

Chapter 1: Introduction

Strata splits large corpora into sections and chunks. Each chunk is
embedded and indexed so that it can be retrieved later.

1.1 Design Goals

The main goals are:

- Throughput over latency
- Deterministic identifiers
- Restartable jobs

Why does throughput matter more than latency? Because a corpus of
100M tokens must be ingested in hours, not days.

1.2 Non-goals

We do not provide a web interface.

Chapter 2

INSTALLATION

Follow these steps in order:

1. Download the release archive
2. Unpack it into /opt/strata
3. Run the installer.

Supported Platforms
Linux, macOS

What if the installer fails?

Check the logs in /var/log/strata and retry.

2.1 Hardware Requirements

At least 16 GB of memory and 4 cores are recommended.
Note: GPUs are optional.

Requirements:

Python
Docker

x = load_config(path)

Figure 3: Cluster topology

March 3, 2024

III. Appendix Material

Appendix B: Glossary

Chunk: a retrievable passage of text.

Best regards,
The Strata Team
"""

EXPECTED = [
    (1, "STRATA OPERATIONS MANUAL"),
    (1, "Chapter 1: Introduction"),
    (2, "1.1 Design Goals"),
    (2, "1.2 Non-goals"),
    (1, "Chapter 2"),
    (1, "INSTALLATION"),
    (2, "2.1 Hardware Requirements"),
    (1, "III. Appendix Material"),
    (1, "Appendix B: Glossary"),
]


def test_detects_headings_with_levels():
    text, heads, title = parse(GUIDE)
    assert text == GUIDE  # text unchanged
    assert title is None
    assert [(h.level, h.title) for h in heads] == EXPECTED
    for h in heads:
        assert text[h.start:h.end] == h.title


def test_sections_tree():
    text, heads, _ = parse(GUIDE)
    doc = build_sections("d", text, heads, title="Manual", fmt="text")
    for s in doc.sections:
        assert doc.text[s.start:s.end] == s.text
    by_title = {s.title: s for s in doc.sections}
    assert by_title["1.1 Design Goals"].path == ["Chapter 1: Introduction", "1.1 Design Goals"]
    assert by_title["2.1 Hardware Requirements"].path == ["INSTALLATION", "2.1 Hardware Requirements"]
    assert "Throughput over latency" in by_title["1.1 Design Goals"].text


def test_precision_on_ordinary_lines():
    _, heads, _ = parse(GUIDE)
    titles = {h.title for h in heads}
    for not_heading in (
        "The main goals are:", "- Throughput over latency", "1. Download the release archive",
        "2. Unpack it into /opt/strata", "What if the installer fails?", "Supported Platforms",
        "Requirements:", "Python", "Docker", "x = load_config(path)", "Figure 3: Cluster topology",
        "March 3, 2024", "Best regards,", "The Strata Team", "Note: GPUs are optional.",
        "Chunk: a retrievable passage of text.",
    ):
        assert not_heading not in titles, not_heading


def test_prose_paragraphs_have_no_headings():
    prose = (
        "The committee met on Tuesday to review the budget.\n\n"
        "Several members raised concerns about the timeline, and the chair\n"
        "agreed to revisit the schedule next month.\n\n"
        "Is this the right approach?\n\n"
        "See the attached minutes for details\n\n"
        "  * first bullet\n  * second bullet\n\n"
        "a lowercase line that is short\n\n"
        "Thanks again for your help.\n"
    )
    _, heads, _ = parse(prose)
    assert heads == []


def test_underlined_and_wiki_style_headings():
    src = "Overview\n========\n\nBody text here.\n\nDetails\n-------\n\nMore.\n\n== Bindings ==\n\nx\n"
    _, heads, _ = parse(src)
    assert [(h.level, h.title) for h in heads] == [(1, "Overview"), (2, "Details"), (1, "Bindings")]


def test_numbered_list_separated_by_blank_lines_is_not_headings():
    src = "Steps:\n\n1. Open The Box\n\n2. Remove The Cover\n\n3. Insert The Card\n\nDone.\n"
    _, heads, _ = parse(src)
    assert heads == []


def test_score_line_signals():
    def sc(s, **kw):
        return score_line(s, blank_before=kw.get("bb", True), blank_after=kw.get("ba", True))[0]

    assert sc("3.2.1 Tuning the Writer") >= THRESHOLD
    assert sc("IV. Results") >= THRESHOLD
    assert sc("Section 4 Results") >= THRESHOLD
    assert sc("This sentence ends with a period.") < THRESHOLD
    assert sc("if (x) { return y; }") < THRESHOLD
    assert sc("2023-01-01 12:00:00") < THRESHOLD
    assert sc("MAX_BATCH_SIZE") < THRESHOLD
    assert sc("Name      Default     Meaning") < THRESHOLD
    assert sc(" ".join(["Word"] * 20)) < THRESHOLD


FILING = """ACME CORPORATION
ANNUAL REPORT ON FORM 10-K

TABLE OF CONTENTS

PART I

Item 1. Business ............ 3

Item 1A. Risk Factors ............ 9

PART II

Item 7. Management's Discussion and Analysis ............ 21

Item 8. Financial Statements ............ 40

PART I

Item 1. Business

Acme makes anvils and rockets for customers in forty countries, and sells them through its own stores.

Item 1A. Risk Factors

Demand for anvils depends on the number of coyotes, which is hard to forecast from one year to the next.

PART II

Item 7. Management's Discussion and Analysis

Revenue grew by 12 percent to 4.1 billion dollars, led by rockets, while anvil sales were flat in the year.

Item 8. Financial Statements

The consolidated statements follow, with the notes that are an integral part of them as listed below.

Note 1. Summary of Significant Accounting Policies

Revenue is recognised when control of an anvil passes to the customer, usually on delivery to the store.

NOTE 12 - INCOME TAXES

The effective tax rate was 21 percent, the statutory rate, with no material uncertain tax positions held.
"""


def test_filing_items_parts_and_notes_make_a_tree_and_the_contents_page_does_not():
    from pipelines.parse.sections import build_sections

    text, heads, _ = parse(FILING)
    titles = [(h.level, h.title) for h in heads]
    assert (2, "Item 7. Management's Discussion and Analysis") in titles
    assert (2, "Item 1A. Risk Factors") in titles and (3, "NOTE 12 - INCOME TAXES") in titles
    assert not any("...." in t for _, t in titles), titles  # the contents entries are gone
    assert [t for _, t in titles].count("Item 1. Business") == 1
    sections = build_sections("d", text, heads, title="ACME", fmt="text").sections
    note = next(s for s in sections if s.title == "NOTE 12 - INCOME TAXES")
    assert note.path[-3:] == ["PART II", "Item 8. Financial Statements", "NOTE 12 - INCOME TAXES"], note.path
    assert "effective tax rate" in note.text


def test_faq_numbered_questions_after_a_no_break_space_are_headings_and_the_contents_are_not():
    """The Debian FAQ's text: "Chapter\\xa07.\\xa0…" and "7.12.\\xa0How do I …?" headings (a no-break space after the
    number, a question mark at the end), a table of contents listing them with plain spaces and no keyword."""
    faq = ("Table of Contents\n\n7. Basics of the Debian package management system\n"
           "    7.1. What is a Debian package?\n    7.2. How do I put a package on hold?\n\n"
           "Chapter\xa07.\xa0Basics of the Debian package management system\n\n"
           "    This chapter touches some low-level internals of package management.\n\n"
           "7.1.\xa0What is a Debian package?\n\n    Packages generally contain all of the files necessary to\n"
           "    implement a set of related commands or features.\n\n"
           "7.2.\xa0How do I put a package on hold?\n\n    There are three ways of holding back packages, with dpkg,\n"
           "    apt or aptitude.\n")
    _, heads, _ = parse(faq)
    assert [(h.level, " ".join(h.title.split())) for h in heads] == [
        (2, "Table of Contents"),
        (1, "Chapter 7. Basics of the Debian package management system"),
        (2, "7.1. What is a Debian package?"),
        (2, "7.2. How do I put a package on hold?"),
    ]
