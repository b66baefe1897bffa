"""The reporting periods a question or a sentence names: years, quarters, and whether it speaks of a whole year.

Filings state every figure for several periods ("$112.6 million for the fourth quarter of 2024, compared with
$84.0 million for the fourth quarter of 2023, and $401.9 million for the full year 2024"), and their questions
name one ("VELORA revenue in the third quarter of 2024", "non-GAAP operating expenses for full-year 2023"). A
sentence that names periods of the kind asked, none of them the asked one, is about another period and does not
answer (:func:`conflicts`); among a sentence's figures, the one whose period is the asked one is the answer
(:func:`match`).

>>> periods("What was VELORA's net product revenue for the third quarter of 2024?")
Periods(years=frozenset({2024}), quarters=frozenset({3}), annual=False, interim=True)
>>> p = periods("Net sales in fiscal 2024 (FY24) and Q4 2023")
>>> sorted(p.years), sorted(p.quarters), p.annual, p.interim
([2023, 2024], [4], True, True)
>>> q = periods("What was Lakeshore's total revenue for full-year 2024?")
>>> conflicts(q, periods("Revenue was $112.6 million for the fourth quarter of 2024.")), conflicts(q, periods("Revenue rose."))
(True, False)
>>> conflicts(periods("What were net sales for fiscal year 2021?"), periods("Net sales — 2024: $1,184; 2023: $1,092"))
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from serving.analysis.period_phrases import MONTH_NAME, PERIOD_PHRASE
from serving.answer.verify import content_words

__all__ = ["Periods", "conflicts", "match", "own_periods", "period_words", "periods", "stated_period_words"]

_YEAR = re.compile(r"(?<![\d.,$])(?:19[5-9]\d|20\d\d)(?![\d.,]\d)")
_FY = re.compile(r"\bFY\s?'?(\d{2}|\d{4})\b", re.IGNORECASE)
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_QUARTER = re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter\b|\bQ([1-4])\b",
                      re.IGNORECASE)
_INTERIM = re.compile(r"\bquarter(?:ly)?\b|\b(?:three|six|nine|3|6|9)[\s-]months?\b|\bQ[1-4]\b", re.IGNORECASE)
_ANNUAL = re.compile(r"\bfull[\s-]year\b|\bfiscal\s+(?:year\b|(?:19|20)\d\d\b)|\bFY\s?'?\d{2,4}\b|"
                     r"\b(?:year|twelve months|12 months) ended\b|\bfor the year\b", re.IGNORECASE)


#: How many months a period named spans: a quarter, a half, nine months, a year ("year to date" is six or nine).
_SPANS = ((3, re.compile(r"\bquarter(?:ly)?\b|\b(?:three|3)[\s-]months?\b|\bQ[1-4]\b", re.IGNORECASE)),
          (6, re.compile(r"\b(?:six|6)[\s-]months?\b|\b(?:first|second) half\b|\bhalf[\s-]year\b|\bH[12]\b|"
                         r"\byear[\s-]to[\s-]date\b|\bYTD\b", re.IGNORECASE)),
          (9, re.compile(r"\b(?:nine|9)[\s-]months?\b|\b9M\b|\byear[\s-]to[\s-]date\b|\bYTD\b", re.IGNORECASE)),
          (12, re.compile(_ANNUAL.pattern + r"|\b(?:twelve|12)[\s-]months?\b", re.IGNORECASE)))


@dataclass(frozen=True)
class Periods:
    """Years (``2024``), quarters (``3`` for "third quarter" or "Q3"), and whether a whole year ("full year",
    "fiscal 2024", "year ended") or a part of one ("quarter", "three months ended") is named."""

    years: frozenset[int] = frozenset()
    quarters: frozenset[int] = frozenset()
    annual: bool = False
    interim: bool = False
    dates: frozenset[tuple[int, int]] = field(default=frozenset(), repr=False)  # (year, month) of each day named
    months: frozenset[int] = field(default=frozenset(), repr=False)  # the spans named: 3, 6, 9 or 12 months

    def __bool__(self) -> bool:
        return bool(self.years or self.quarters or self.annual or self.interim)


_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
#: A day: "September 30, 2024", "Dec. 31, 2024", "Sept. 30, 2024".
_DAY = re.compile(r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2},?\s+((?:19|20)\d\d)\b")


#: A month of a year without its day ("May 2024"), and one named as the span asked about ("in May 2024").
_MONTH_NAME = "(" + MONTH_NAME + ")"  # the month as a group of its own
_MONTH_OF_YEAR = re.compile(r"\b" + _MONTH_NAME + r"\s+((?:19|20)\d\d)\b")
_IN_MONTH = re.compile(r"\b(?:in|during)\s+(?:the\s+month\s+of\s+)?" + _MONTH_NAME + r"\s+(?:19|20)\d\d\b")


def periods(text: str) -> Periods:
    """The periods ``text`` names (see the module docstring).

    >>> sorted(periods("cash as of September 30, 2024 and Dec. 31, 2023").dates)
    [(2023, 12), (2024, 9)]

    A month of a year is a day's month, and "in May 2024" asks about that one month: a fiscal year's or nine
    months' figure is not its figure.

    >>> p = periods("How many shares did it buy back in May 2024?")
    >>> sorted(p.dates), sorted(p.months), conflicts(p, periods("During fiscal 2024 we repurchased 612,480 shares"))
    ([(2024, 5)], [1], True)
    >>> conflicts(p, periods("May 1 - May 31, 2024 | 71,900")), sorted(periods("cash as of December 2024").months)
    (False, [])
    """
    years = {int(m.group(0)) for m in _YEAR.finditer(text)}
    for m in _FY.finditer(text):
        digits = m.group(1)
        years.add(int(digits) if len(digits) == 4 else 2000 + int(digits))
    quarters = {(_ORDINALS[m.group(1).lower()] if m.group(1) else int(m.group(2))) for m in _QUARTER.finditer(text)}
    dates = {(int(m.group(2)), _MONTHS[m.group(1)[:3].lower()]) for m in _DAY.finditer(text)}
    dates |= {(int(m.group(2)), _MONTHS[m.group(1)[:3].lower()]) for m in _MONTH_OF_YEAR.finditer(text)}
    months = {n for n, span in _SPANS if span.search(text)}
    if _IN_MONTH.search(text):  # "in May 2024": one month
        months.add(1)
    return Periods(frozenset(years), frozenset(quarters), bool(_ANNUAL.search(text)), bool(_INTERIM.search(text)),
                   frozenset(dates), frozenset(months))


#: What introduces the period a figure is compared with: "… compared with the fourth quarter of 2023".
_BASE = re.compile(r"\b(?:compared (?:with|to)|versus|vs\.?|(?:up|down|increased?|decreased?|rose|fell|grew) from|than|"
                   r"over|prior|previous|preceding|last)\b[^;:]{0,40}$",
                   re.IGNORECASE)


#: A mention of a period that a comparison may introduce: a year, a quarter (:data:`_QUARTER`), a part or a whole year.
_MENTION = re.compile(r"(?:19|20)\d\d|" + _QUARTER.pattern + r"|\b(?:three|six|nine)[\s-]months?\b|\bfull[\s-]year\b",
                      re.IGNORECASE)


def own_periods(text: str) -> Periods:
    """The periods ``text`` reports on, without those it only compares with ("an increase of 34% compared with the
    fourth quarter of 2023", "up from $4.1 million in 2023").

    >>> p = own_periods("Revenue was $104.8 million in the fourth quarter of 2024, up 34% compared with the fourth quarter of 2023.")
    >>> sorted(p.years), sorted(p.quarters)
    ([2024], [4])
    >>> sorted(own_periods("Cash from operations in 2024 was $118.3 million, up from $96.8 million in 2023.").years)
    [2024]
    """
    kept, at = [], 0
    for m in _MENTION.finditer(text):
        if _BASE.search(text, 0, m.start()):
            kept.append(text[at:m.start()])
            at = m.end()
    kept.append(text[at:])
    return periods(" ".join(kept))


def conflicts(asked: Periods, stated: Periods) -> bool:
    """Whether a sentence naming ``stated`` is about another period than the question naming ``asked``: it
    names years and none asked, names quarters and none asked, names days of other months than the day asked ("as of
    September 30, 2024" is not "December 31, 2024"), names spans of other lengths (a quarter is not nine months), or
    names only part of a year where a whole year is asked (or the reverse). A sentence that names no period of a kind
    never conflicts on it.

    >>> conflicts(periods("What was cash as of September 30, 2024?"), periods("Cash — December 31, 2024: 882,114"))
    True
    >>> q3 = periods("What were revenues in the third quarter of 2025?")
    >>> conflicts(q3, periods("Nine Months Ended September 30, 2025")), conflicts(q3, periods("Three Months Ended Sept. 30, 2025"))
    (True, False)
    """
    if asked.years and stated.years and not asked.years & stated.years:
        return True
    if asked.dates and stated.dates and not asked.dates & stated.dates:
        return True
    if asked.quarters and stated.quarters and not asked.quarters & stated.quarters:
        return True
    if asked.months and stated.months and not asked.months & stated.months:
        return True  # "the third quarter of 2025" is not "the nine months ended September 30, 2025"
    if asked.annual and not asked.interim and stated.interim and not stated.annual:
        return True
    return asked.interim and not asked.annual and stated.annual and not stated.interim


def match(asked: Periods, stated: Periods) -> int:
    """How well ``stated`` (the words around one figure) fits ``asked``: +2 for each asked year and quarter it
    names, +1 for a whole year or a part of one named on both sides, −2 when it conflicts (:func:`conflicts`).

    >>> q = periods("total revenue for full-year 2024")
    >>> match(q, periods("for the fourth quarter of 2024, compared with")), match(q, periods("for the full year 2024"))
    (0, 3)
    >>> q = periods("net loss for the year ended December 31, 2024")
    >>> match(q, periods("Three Months Ended Dec. 31, 2024")), match(q, periods("Year Ended Dec. 31, 2024"))
    (0, 3)
    """
    score = 2 * len(asked.years & stated.years) + 2 * len(asked.quarters & stated.quarters)
    score += (1 if asked.annual and stated.annual else 0) + (1 if asked.interim and stated.interim else 0)
    return score - (2 if conflicts(asked, stated) else 0)


def period_words(question: str) -> frozenset[str]:
    """The content words of the phrases in ``question`` that only say which period
    (:data:`serving.analysis.period_phrases.PERIOD_PHRASE`: "the first nine months of", "the quarter ended
    September 30,", "versus the prior-year quarter"), without its years. Which period a sentence speaks of is
    checked on its own (:func:`conflicts`, :func:`match`), and a statement's row names its period in
    a column head ("2025: (31,740)"), not in these words (:func:`stated_period_words`).

    >>> sorted(period_words("How much did Halberd spend on equipment in the first nine months of 2025?"))
    ['first', 'month', 'nine']
    >>> sorted(period_words("What was the top line for the quarter ended September 30, 2025?"))
    ['30', 'ended', 'quarter', 'september']
    >>> sorted(period_words("How fast did sales grow in Q3 2025 versus the prior-year quarter?"))
    ['prior', 'q3', 'quarter', 'versu', 'year']
    >>> period_words("Which quarterback won the first game in 2021?")
    frozenset()
    """
    return _asked_period(question)[0]


@lru_cache(maxsize=1024)
def _asked_period(question: str) -> tuple[frozenset[str], Periods]:
    """:func:`period_words` and :func:`periods` of ``question``, once per question (the answer path asks with every
    candidate sentence)."""
    spans = " ".join(m.group(0) for m in PERIOD_PHRASE.finditer(question))
    return frozenset(w for w in content_words(spans) if not _YEAR.fullmatch(w)), periods(question)


def stated_period_words(question: str, text: str) -> frozenset[str]:
    """The period words of ``question`` (:func:`period_words`) that ``text`` states by naming an asked year or
    quarter and no other period of the kind asked (:func:`conflicts`); else none. A cash-flow statement's row
    "Purchases of property, plant and equipment — 2025: (31,740)" states "the first nine months of 2025" as well
    as a sentence that repeats those words.

    >>> q = "How much did Halberd spend on equipment in the first nine months of 2025?"
    >>> sorted(stated_period_words(q, "Purchases of property, plant and equipment — 2025: (31,740); 2024: (28,915)"))
    ['first', 'month', 'nine']
    >>> stated_period_words(q, "Purchases of property and equipment — 2023: (22,104)")
    frozenset()
    """
    words, asked = _asked_period(question)
    if not words:
        return words
    stated = own_periods(text)
    named = asked.years & stated.years or asked.quarters & stated.quarters
    return words if named and not conflicts(asked, stated) else frozenset()
