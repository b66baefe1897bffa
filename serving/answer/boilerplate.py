"""Sentences that are never an answer: cover pages, tables of contents, legal notices, navigation; and the standard
wording of audit reports and signature blocks, unless the question is about them.

A filing's cover page ("SECURITIES AND EXCHANGE COMMISSION … Form 10-K"), a table-of-contents line
("Item 7. Management's Discussion …… 45"), a copyright or licence notice, a forward-looking-statements
disclaimer and a site's navigation ("Skip to main content", "Home | About | Contact") share every word
of many questions and say nothing. The extractive answerer never quotes them and never counts them
towards answerability. Rules, not a model: they hold on corpora nobody tuned on.

>>> is_boilerplate("UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549 FORM 10-K")
True
>>> is_boilerplate("Item 7. Management's Discussion and Analysis of Financial Condition .......... 45")
True
>>> is_boilerplate("Management's Discussion and Analysis of Financial Condition ..........")
True
>>> is_boilerplate("Copyright © 2024 Acme Corp. All rights reserved.")
True
>>> is_boilerplate("Skip to main content Home | Products | About us | Contact")
True
>>> is_boilerplate("This report contains forward-looking statements within the meaning of the Private "
...                "Securities Litigation Reform Act of 1995.")
True
>>> is_boilerplate("Revenue grew 12% to $4.1 billion in fiscal 2024, driven by cloud services.")
False
>>> is_boilerplate("Babbage was born on December 26, 1791 in Teignmouth, Devonshire UK.")
False
>>> is_boilerplate("To the Stockholders and the Board of Directors of Globex Corporation")  # a salutation
True

A filing item that only points to another document (:func:`serving.retrieval.contentless.is_pointer`: "The
information required by this item is incorporated by reference to our Proxy Statement …") names the item's subject
and the fiscal year, and says nothing of either:

>>> is_boilerplate("The information required by this item is incorporated herein by reference to our definitive "
...                "Proxy Statement, which will be filed within 120 days after the end of our fiscal year.")
True
>>> is_boilerplate("Backlog was $212.4 million at December 31, 2024, compared with $180.2 million a year earlier.")
False

An auditor's report and a filing's signature block are standard wording too: the PCAOB's opinion paragraphs
("We have audited the accompanying consolidated balance sheets of …", "present fairly, in all material respects")
name the company and every fiscal year-end date, so they covered any question about a figure "at December 31,
2024", and said none. They answer only a question about the audit (:func:`is_audit_wording`,
:func:`asks_about_audit`); the auditor's own facts ("We have served as the Company's auditor since 2009") are
never standard wording.

>>> is_audit_wording("We have audited the accompanying consolidated balance sheets of Globex Corporation as of "
...                  "December 31, 2024 and 2023, and the related statements of income for each of the three years.")
True
>>> is_audit_wording("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
...                  "caused this report to be signed on its behalf by the undersigned, thereunto duly authorized.")
True
>>> is_audit_wording("To the Stockholders and the Board of Directors of Globex Corporation")  # the report's salutation
True
>>> is_audit_wording("We have served as the Company's auditor since 2009.")
False
>>> asks_about_audit("Which firm audits Globex?"), asks_about_audit("What were Globex's net sales in 2024?")
(True, False)

A section that only points elsewhere ("See Also", "References", "External links") is navigation too: its
"sentences" are lists of titles ("ALTER INDEX, DROP INDEX, REINDEX, Section 28.4.2"), never an answer.

>>> is_reference_section("CREATE INDEX > See Also"), is_reference_section("epoll(7) > SEE ALSO")
(True, True)
>>> is_reference_section("bzip2 > 4.5. Further Reading"), is_reference_section("CREATE INDEX > Description")
(False, False)
"""

from __future__ import annotations

import re

from serving.retrieval.contentless import is_pointer

__all__ = ["asks_about_audit", "is_audit_wording", "is_boilerplate", "is_reference_section"]

_COVER = re.compile(
    r"\bsecurities and exchange commission\b|\bcommission file number\b|\b(?:i\.r\.s\.|irs) employer identification\b|"
    r"\bstate or other jurisdiction of incorporation\b|\bindicate by check mark\b|\bpursuant to section 1[35]\(d\)|"
    r"\bregistrant'?s telephone number\b|\b(?:annual|quarterly) report pursuant to\b|\bform 10-[kq]\b.{0,80}\bfiscal year ended\b",
    re.IGNORECASE)
_LEGAL = re.compile(
    r"\ball rights reserved\b|\bcopyright\s*(?:©|\(c\)|\d{4})|©\s*\d{4}|\bforward-looking statements?\b.{0,120}"
    r"\b(?:within the meaning|safe harbor|litigation reform|risks and uncertainties|undue reliance)\b|"
    r"\bpermission is (?:hereby )?granted\b|\bwithout warranty of any kind\b|\bthis (?:document|report|material) "
    r"(?:is|has been) (?:provided|prepared) for (?:general )?information(?:al)? purposes only\b|"
    r"\bdoes not constitute (?:investment|legal|financial) advice\b|\bterms of (?:use|service)\b.{0,40}\bprivacy policy\b|"
    r"\bcookie (?:policy|settings|preferences)\b|\bwe use cookies\b",
    re.IGNORECASE)
_NAVIGATION = re.compile(
    r"\bskip to (?:main )?content\b|\bback to top\b|\b(?:click|tap) here\b|\bsubscribe to our newsletter\b|"
    r"\bsign (?:in|up)\b.{0,30}\b(?:log ?in|register|sign (?:in|up))\b|\bshare (?:this|on) (?:article|page|facebook|twitter|linkedin)\b|"
    r"\b(?:previous|next) (?:page|article|chapter)\b.{0,30}\b(?:next|previous|contents|home)\b",
    re.IGNORECASE)
_AUDIT = re.compile(
    r"\bwe have audited the accompanying\b|\bpresent fairly,? in all material respects\b|"
    r"\bin accordance with the standards of the public company accounting oversight board\b|"
    r"\b(?:these|the) (?:consolidated )?financial statements are the responsibility of\b|"
    r"\bour responsibility is to express an opinion\b|\breasonable assurance about whether the (?:consolidated )?"
    r"financial statements are free of material misstatement|\bwe believe that our audits provide a reasonable basis\b|"
    r"\bthe accompanying notes are an integral part of\b|\bhas duly caused this (?:report|statement|amendment) to be "
    r"signed\b|\bthis report has been signed below by the following persons\b|"
    r"^to the (?:stockholders|shareholders|members|partners|board of directors)\b.{0,40}\bof [A-Z]|"
    r"^report of independent registered public accounting firm\b",
    re.IGNORECASE)
_TOC = re.compile(r"\btable of contents\b|(?:\.\s?){5,}|(?:\s\w[\w'’,&-]*){1,8}\s?\.{3,}\s*\d+\s*$", re.IGNORECASE)
_MENU = re.compile(r"(?:^|\s)[|•»›](?=\s)")
#: A report's or a letter's salutation alone: it addresses, and never says anything.
_SALUTATION = re.compile(r"(?:to|dear) (?:the |our )?(?:stockholders|shareholders|members|partners|unitholders|board of "
                         r"directors)\b[\w\s,.&'’-]{0,100}:?", re.IGNORECASE)


_ABOUT_AUDIT = re.compile(r"\baudit|\bopinion\b|\bpcaob\b|\baccounting firm\b|\bassurance\b|\bsign(?:ed|s|atures?)?\b",
                          re.IGNORECASE)


def is_audit_wording(sentence: str) -> bool:
    """The standard wording of an auditor's report or a filing's signature block (see the module docstring)."""
    return _AUDIT.search(" ".join(sentence.split())) is not None


def asks_about_audit(question: str) -> bool:
    """Whether ``question`` is about the audit or the signatures, so that their standard wording may answer it."""
    return _ABOUT_AUDIT.search(question) is not None


def is_boilerplate(sentence: str) -> bool:
    """A cover-page, table-of-contents, legal-notice or navigation sentence (see the module docstring)."""
    text = " ".join(sentence.split())
    if _COVER.search(text) or _LEGAL.search(text) or _NAVIGATION.search(text) or _TOC.search(text) \
            or is_pointer(text):
        return True
    if len(_MENU.findall(text)) >= 3:  # "Home | Products | About | Contact"
        return True
    if _SALUTATION.fullmatch(text):  # "To the Stockholders and the Board of Directors of Globex Corporation"
        return True
    # A run of "Item 1. … Item 1A. … Item 2." headings: an index, not prose.
    return len(re.findall(r"\b(?:item|part|note|section|chapter)\s+\d+[a-z]?\b\.?", text, re.IGNORECASE)) >= 3


_REFERENCE_SECTION = re.compile(r"(?:\d+(?:\.\d+)*\.?\s+)?(?:see also|references|bibliography|external links|"
                                r"related (?:pages|links|topics|articles|commands|manual pages))\s*", re.IGNORECASE)


def is_reference_section(header: str) -> bool:
    """Whether the innermost section of ``header`` (``title > section > …``) only points elsewhere (see the module
    docstring)."""
    return _REFERENCE_SECTION.fullmatch(header.rsplit(" > ", 1)[-1].strip()) is not None
