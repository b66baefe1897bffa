"""Analysts' names for financial statement measures, spelled as statements write them: "capex" → "capital expenditures".

Analysts ask "What was the FY2023 capex?", "What was its top line?", "How much did it spend on buybacks?"; the
statements say "Capital expenditures" (or "Purchases of property, plant and equipment"), "Net sales" or "Revenue",
"Repurchases of common stock". BM25 cannot match such a name and the embedder matches it loosely, so a question that
uses one is also searched with the statement's words (a variant of the query, as :mod:`period_codes` spells "FY2024"
out). Acronyms that reports and statements print themselves (R&D, SG&A, D&A) are left as they are: searched spelled
out, a business report about "SG&A functions" lost its top-10 places to another report on selling costs. The answer
path reads the same measures under all their names (:func:`serving.answer.span.financial_nouns`).

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

__all__ = ["spell_measure_names"]

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
_NAME = re.compile(r"(?<![\w&-])(?:" + "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True))
                   + r")(?![\w&-])", re.IGNORECASE)


def spell_measure_names(text: str) -> str:
    """``text`` with each analyst's name of a measure (capex, COGS, opex, top line, bottom line, net profit,
    buybacks, buy back, book value, headcount) replaced by the words a financial statement uses for it."""
    return _NAME.sub(lambda m: _NAMES[m.group(0).lower()], text)
