"""Sections that only give notice: a filing's forward-looking-statements caution, its conference-call details, its
exhibit list, its signatures.

Every earnings release and 10-K has them, under the same titles, and their words are the filing's own ("results",
"quarter", "fiscal 2024", the company's name), so the section tier and the outline found them for any question about
the filing. On a 1,000-token pack they took 200 tokens that a statement's chunk needed. A section whose title is
such a notice is left out of the section tier and the outline, unless the question asks about it ("When is the
earnings call?", "Which exhibits were filed?").

>>> is_notice("Cautionary Note Regarding Forward-Looking Statements", "What was Lakeshore's net loss for 2024?")
True
>>> is_notice("Conference Call and Webcast Information", "What was the net loss for 2024?")
True
>>> is_notice("Item 9.01. Financial Statements and Exhibits.", "What was the net loss for 2024?")
True
>>> is_notice("Item 6. Exhibits", "What was the net loss?"), is_notice("Exhibit 99.1", "What was the net loss?")
(True, False)
>>> is_notice("Conference Call and Webcast Information", "When is the earnings call webcast?")
False
>>> is_notice("CONSOLIDATED STATEMENTS OF OPERATIONS", "What was the net loss for 2024?")
False
>>> is_notice("1.3. Authors and Maintainers", "Who wrote the policy manual?")
False
"""

from __future__ import annotations

import re

__all__ = ["is_notice"]

_NOTICE_TITLE = re.compile(
    r"\bforward[- ]looking (?:statements?|information)\b|\bsafe harbou?r\b|\bcautionary (?:note|statement|language)s?\b|"
    r"\bconference call\b|\bwebcast\b|^\W*(?:item\s+\d+[a-z]?\W*)?(?:signatures?|exhibit index|index to exhibits|exhibits)\W*$|"
    r"\b(?:financial statements?|financial statement schedules?) and exhibits\b|\bexhibits and financial statement\b",
    re.IGNORECASE)
#: Words of a question about the notice itself.
_ASKS_NOTICE = re.compile(r"\bforward[- ]looking\b|\bsafe harbou?r\b|\bcautionary\b|\b(?:conference|earnings) call\b|"
                          r"\bwebcast\b|\bsign(?:ed|s|atures?)\b|\bexhibits?\b|\breplay\b|\bdial[- ]in\b", re.IGNORECASE)


def is_notice(title: str, query: str) -> bool:
    """Whether the section titled ``title`` is a notice (see the module docstring) that ``query`` does not ask about."""
    return _NOTICE_TITLE.search(" ".join((title or "").split())) is not None and _ASKS_NOTICE.search(query) is None
