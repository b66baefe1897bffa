"""Analysts' names for financial statement measures, spelled as statements write them: "capex" → "capital expenditures".

Analysts ask "What was the FY2023 capex?", "What was its top line?", "How much did it spend on buybacks?"; the
statements say "Capital expenditures" (or "Purchases of property, plant and equipment"), "Net sales" or "Revenue",
"Repurchases of common stock". BM25 cannot match such a name and the embedder matches it loosely, so a question that
uses one is also searched with the statement's words (a variant of the query, as :mod:`period_codes` spells "FY2024"
out). Acronyms that reports and statements print themselves (R&D, SG&A, D&A) are left as they are, except in a
question asking the amount of one ("How much D&A did Northwind record in 2024?", whose figure is the statement's
"Depreciation and amortization" row): searched spelled out in every question, a business report about "SG&A
functions" lost its top-10 places to another report on selling costs. The answer path reads the same measures under
all their names (:func:`serving.answer.span.financial_nouns`).

>>> spell_measure_names("What was Northwind's capex in 2023, and its top line?")
"What was Northwind's capital expenditures purchases of property and equipment in 2023, and its revenue net sales?"
>>> spell_measure_names("How much did Globex spend on share buybacks and R&D?")
'How much did Globex spend on share repurchases of common stock and R&D?'
>>> spell_measure_names("How many shares did Halberd buy back in August 2025?")
'How many shares did Halberd repurchase purchases of shares in August 2025?'
>>> spell_measure_names("What does the top command show?")
'What does the top command show?'
"""

from __future__ import annotations

import re

__all__ = ["spell_measure_names", "statement_words"]

#: An analyst's name → the words statements use for the measure (the line items' usual labels).
_NAMES = {
    "capex": "capital expenditures purchases of property and equipment",
    "top line": "revenue net sales",
    "top-line": "revenue net sales",
    "bottom line": "net income",
    "bottom-line": "net income",
    "net profit": "net income",
    "cogs": "cost of sales cost of goods sold",
    "opex": "operating expenses",
    "buybacks": "repurchases of common stock",
    "buyback": "repurchases of common stock",
    "buy back": "repurchase purchases of shares",
    "bought back": "repurchased purchases of shares",
    "book value": "stockholders' equity",
    "headcount": "employees",
    "head count": "employees",
}


def _any_of(names: dict[str, str]) -> re.Pattern[str]:
    """A pattern matching any of ``names`` as a whole word (longest first), in any case."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"(?<![\w&-])(?:" + alternatives + r")(?![\w&-])", re.IGNORECASE)


_NAME = _any_of(_NAMES)

#: Acronyms that statements print spelled out in their line items ("Research and development"): not searched spelled
#: (see above), but they name the row a quoted window of a retrieved chunk should show.
_ACRONYMS = {"r&d": "research and development", "sg&a": "selling general and administrative",
             "d&a": "depreciation and amortization", "pp&e": "property plant and equipment", "eps": "earnings per share"}
_ACRONYM = _any_of(_ACRONYMS)


def spell_measure_names(text: str, *, acronyms: bool = False) -> str:
    """``text`` with each analyst's name of a measure (capex, COGS, opex, top line, bottom line, net profit,
    buybacks, buy back, book value, headcount) replaced by the words a financial statement uses for it; with
    ``acronyms``, its acronyms too (R&D, SG&A, D&A, PP&E, EPS: for a question asking the amount of one, whose
    statement row spells it out).

    >>> spell_measure_names("How much D&A did Northwind record in 2024?", acronyms=True)
    'How much depreciation and amortization did Northwind record in 2024?'
    """
    spelled = _NAME.sub(lambda m: _NAMES[m.group(0).lower()], text)
    return _ACRONYM.sub(lambda m: _ACRONYMS[m.group(0).lower()], spelled) if acronyms else spelled


def statement_words(text: str) -> str:
    """The words a financial statement's line items use for the measures ``text`` names by an analyst's name or an
    acronym, joined ("" when it names none): what picks the rows to quote of a statement already retrieved.

    >>> statement_words("How much did Lakeshore spend on R&D and capex in 2024?")
    'research and development capital expenditures purchases of property and equipment'
    >>> statement_words("How do I stop bzip2 from deleting the original file?")
    ''
    """
    found = [(m.start(), _ACRONYMS[m.group(0).lower()]) for m in _ACRONYM.finditer(text)]
    found += [(m.start(), _NAMES[m.group(0).lower()]) for m in _NAME.finditer(text)]
    return " ".join(dict.fromkeys(words for _, words in sorted(found)))
