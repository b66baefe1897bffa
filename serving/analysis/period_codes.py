"""Reporting periods written as codes, spelled out as filings write them: "FY2024" → "fiscal 2024".

Analysts ask "What was the FY2024 capex?" and "What was the effective tax rate in Q1 2025?"; a 10-K says "fiscal
2024" and "the first quarter of 2025". Spelled out, the question shares the filing's words (the cross-encoder and
the coverage of the answer path read them) and :mod:`serving.answer.periods` knows which period is asked.

>>> spell_period_codes("What was the FY2024 net sales amount? And in FY'23?")
'What was the fiscal 2024 net sales amount? And in fiscal 2023?'
>>> spell_period_codes("What was the tax rate in Q1 2025, 2Q24 and H1'24?")
'What was the tax rate in first quarter 2025, second quarter 2024 and first half 2024?'
>>> spell_period_codes("Is FYI a code? Is Q7 or SQ1?")
'Is FYI a code? Is Q7 or SQ1?'
"""

from __future__ import annotations

import re

__all__ = ["code_year", "spell_period_codes"]

_ORDINAL = {"1": "first", "2": "second", "3": "third", "4": "fourth"}
_YEAR = r"'?(?P<year>\d{4}|\d{2})"
#: FY2024, fy24, CY'23 (the year code's letters in any case); Q1, Q1 2025, Q1'25, H2, 1Q25, 2H24 (capitals only: "h1"
#: is an HTML tag and "q1" a question number). A half is H1 or H2.
_CODE = re.compile(r"\b(?:(?P<fy>(?i:FY|CY))" + _YEAR.replace("year", "fy_year") +
                   r"|(?:Q(?P<q>[1-4])|H(?P<h>[12]))(?:\s?" + _YEAR + r")?"
                   r"|(?:(?P<q2>[1-4])Q|(?P<h2>[12])H)" + _YEAR.replace("year", "year2") + r")\b")


def _year(digits: str | None) -> str:
    if not digits:
        return ""
    return f"20{digits}" if len(digits) == 2 else digits


def _spell(m: re.Match) -> str:
    if m.group("fy"):
        return f"{'fiscal' if m.group('fy').upper() == 'FY' else 'calendar'} {_year(m.group('fy_year'))}"
    n = m.group("q") or m.group("h") or m.group("q2") or m.group("h2")
    spelled = f"{_ORDINAL[n]} {'quarter' if m.group('q') or m.group('q2') else 'half'}"
    return f"{spelled} {_year(m.group('year') or m.group('year2'))}".strip()


def code_year(token: str) -> str | None:
    """The year that ``token``, a whole period code, stands for: a fiscal or calendar year code's year, "" for a
    quarter or half (a period within a year, matched by :mod:`serving.answer.periods`), None for no code.

    >>> code_year("FY24"), code_year("cy2023"), code_year("Q1"), code_year("1Q25"), code_year("H3"), code_year("h1")
    ('2024', '2023', '', '', None, None)
    """
    m = _CODE.fullmatch(token)
    if m is None:
        return None
    return _year(m.group("fy_year")) if m.group("fy") else ""


def spell_period_codes(text: str) -> str:
    """``text`` with its period codes (FY2024, FY'24, CY2023, Q1, Q1 2025, 1Q25, H1'24, 2H24) spelled out."""
    return _CODE.sub(_spell, text)
