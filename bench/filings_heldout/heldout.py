"""Held-out SEC-filing documents for the parser: ``documents()`` returns (file name, raw bytes, truth
headings as (depth, title) in document order). Layouts were written independently of the parser."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import doc_10k_pdf  # noqa: E402
import doc_10q_pdf  # noqa: E402
import doc_credit_pdf  # noqa: E402
import doc_10k_html  # noqa: E402
import doc_proxy_html  # noqa: E402
import doc_8k_html  # noqa: E402

_BUILDERS = [doc_10k_pdf, doc_10q_pdf, doc_credit_pdf, doc_10k_html, doc_proxy_html, doc_8k_html]


def documents() -> list[tuple[str, bytes, list[tuple[int, str]]]]:
    return [mod.build() for mod in _BUILDERS]
