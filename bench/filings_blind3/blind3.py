"""Blind-written SEC-filing documents for the answer bench (third set): ``documents()`` returns (file name, raw
bytes) for two invented filings (a DEF 14A proxy statement in HTML and a 10-Q in HTML). Written without reading
the answering system. Each generator is self-contained (no PDF helpers are needed)."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import doc_e  # noqa: E402
import doc_f  # noqa: E402

_BUILDERS = [doc_e, doc_f]


def documents() -> list[tuple[str, bytes]]:
    return [mod.build()[:2] for mod in _BUILDERS]


def page_counts() -> dict[str, int]:
    return {b[0]: b[3] for b in (mod.build() for mod in _BUILDERS)}
