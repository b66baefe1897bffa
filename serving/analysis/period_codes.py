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

__all__ = ["spell_period_codes"]

_ORDINAL = {"1": "first", "2": "second", "3": "third", "4": "fourth"}
_YEAR = r"'?(?P<year>\d{4}|\d{2})"
_CODE = re.compile(r"\b(?:(?P<fy>FY|CY)" + _YEAR.replace("year", "fy_year") + r"|(?P<kind>Q|H)(?P<n>[1-4])(?:\s?" + _YEAR +
                   r")?|(?P<n2>[1-4])(?P<kind2>Q|H)" + _YEAR.replace("year", "year2") + r")\b")


def _year(digits: str | None) -> str:
    if not digits:
        return ""
    return f"20{digits}" if len(digits) == 2 else digits


def _spell(m: re.Match) -> str:
    if m.group("fy"):
        return f"{'fiscal' if m.group('fy').upper() == 'FY' else 'calendar'} {_year(m.group('fy_year'))}"
    kind, n, year = (m.group("kind"), m.group("n"), m.group("year")) if m.group("kind") else (
        m.group("kind2"), m.group("n2"), m.group("year2"))
    if kind.upper() == "H" and n not in "12":
        return m.group(0)
    spelled = f"{_ORDINAL[n]} {'quarter' if kind.upper() == 'Q' else 'half'}"
    return f"{spelled} {_year(year)}".strip()


def spell_period_codes(text: str) -> str:
    """``text`` with its period codes (FY2024, FY'24, CY2023, Q1, Q1 2025, 1Q25, H1'24, 2H24) spelled out."""
    return _CODE.sub(_spell, text)
