"""The phrases of a question that only say which reporting period it asks about, and the question without them.

"What was Halberd's top line for the quarter ended September 30, 2025?" names its period in seven of its words. In
a 10-Q every statement, every note and most of the MD&A name the same quarter, so those words match every passage of
the filing and outweigh the one word that says what is asked: the passage that states net sales ranked 18th. The
question is also searched without its period (:func:`without_periods`, a variant of the query, as
:mod:`period_codes` spells "FY2024" out), while the query itself still picks the filing of the asked period.
:func:`serving.answer.periods.period_words` reads the same phrases.

>>> without_periods("What was Halberd's top line for the quarter ended September 30, 2025?")
"What was Halberd's top line?"
>>> without_periods("How much did Halberd spend on equipment in the first nine months of 2025?")
'How much did Halberd spend on equipment?'
>>> without_periods("How fast did sales grow in third quarter 2025 versus the prior-year quarter?")
'How fast did sales grow?'
>>> without_periods("Do newborns aged less than 6 months die of SIDS?")  # a duration is no reporting period
'Do newborns aged less than 6 months die of SIDS?'
>>> without_periods("Which quarterback won the first game in 2021?")  # a year alone is no reporting period
'Which quarterback won the first game in 2021?'
>>> without_periods("In which fiscal quarter did the plan start?")  # the period is what it asks
'In which fiscal quarter did the plan start?'
"""

from __future__ import annotations

import re

__all__ = ["MONTH_NAME", "PERIOD_PHRASE", "without_periods"]

#: A month's name, spelled out (one pattern for the question analysis and the answer path).
MONTH_NAME = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
#: A span of months is a reporting period as "the first nine months", "six months ended", "nine months of 2025";
#: "aged less than 6 months" and "six months of physical activity" are durations.
_MONTHS = r"(?:three|six|nine|twelve|3|6|9|12)[\s-]months?"
#: A phrase that only says which period: "the first nine months of", "the quarter ended September 30,", "fiscal year",
#: "third quarter", "versus the prior-year quarter", "year over year" (not the year after it: see :func:`without_periods`).
PERIOD_PHRASE = re.compile(
    r"\b(?:(?:the\s+)?(?:first|second|third|fourth|last|latest|most recent)\s+)?(?:"
    r"(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter|Q[1-4]|"
    r"(?:(?<=first\s)|(?<=last\s))" + _MONTHS + r"|" + _MONTHS + r"(?=\s+(?:ended|ending)\b|,?\s+(?:of\s+)?(?:19|20)\d\d\b)|"
    r"(?:first|second) half|half[\s-]year|"
    r"full[\s-]year|fiscal(?:\s+year)?|year[\s-]to[\s-]date|YTD|9M|H[12]|quarter(?:ly)?|"
    r"(?:year|quarter|period)\s+ended)\b"
    r"(?:\s+(?:ended|ending)?\s*" + MONTH_NAME + r"\s+\d{1,2},?)?"
    r"|\b(?:versus|vs\.?|compared (?:with|to)|relative to)\s+(?:the\s+)?(?:same\s+)?(?:prior|previous|preceding|last)"
    r"[\s-]+(?:year(?:'s)?|fiscal)?[\s-]*(?:quarter|period|year)?"
    r"|\b(?:year[\s-]over[\s-]year|a year (?:earlier|ago)|(?:the\s+)?prior[\s-]year(?:\s+(?:quarter|period))?)\b",
    re.IGNORECASE)
#: A period phrase with the words that attach it: "in the first nine months of 2025", "for the quarter ended
#: September 30, 2025", "versus the prior-year quarter".
_ATTACHED = re.compile(r"(?:\s*,)?\s*(?:\b(?:in|for|during|over|at|as of|through)\s+)?(?:the\s+)?(?:" + PERIOD_PHRASE.pattern
                       + r")(?:\s*(?:of\s+)?(?:19|20)\d\d\b)?", re.IGNORECASE)

#: A question that asks for a period ("In which fiscal year …?"): its period words are what it asks.
_ASKS_PERIOD = re.compile(r"\b(?:which|what)\s+(?:fiscal\s+)?(?:year|quarter|period|month|half)\b", re.IGNORECASE)


def without_periods(text: str) -> str:
    """``text`` without its period phrases (:data:`PERIOD_PHRASE`), the words that attach them and the years they
    name; ``text`` itself when it has none (a year alone says which year, not which reporting period)."""
    if not PERIOD_PHRASE.search(text) or _ASKS_PERIOD.search(text):
        return text
    bare = _ATTACHED.sub("", text)
    return re.sub(r"\s+([?.!,;])", r"\1", re.sub(r"\s{2,}", " ", bare)).strip(" ,;")
