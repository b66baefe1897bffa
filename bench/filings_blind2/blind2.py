"""Blind-written SEC-filing documents for the answer bench (second set): ``documents()`` returns (file name,
raw bytes) for two invented filings (a 10-Q PDF and an earnings-release 8-K Exhibit 99.1 PDF). Written without
reading the answering system. The layout helpers come from ``bench/filings_heldout`` (pdflayout.py, which uses
tests/parse/pdfgen.py)."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_HELDOUT = os.path.join(os.path.dirname(_HERE), "filings_heldout")
for _p in (_HERE, _HELDOUT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import doc_c  # noqa: E402
import doc_d  # noqa: E402

_BUILDERS = [doc_c, doc_d]


def documents() -> list[tuple[str, bytes]]:
    return [mod.build()[:2] for mod in _BUILDERS]


def page_counts() -> dict[str, int]:
    return {b[0]: b[3] for b in (mod.build() for mod in _BUILDERS)}
