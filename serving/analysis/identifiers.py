"""Exact identifiers in a query: error codes, API names, flags, paths, quoted strings.

Such queries are answered best by lexical (BM25-led) retrieval; embeddings blur them.

>>> find_identifiers('why does open() fail with EACCES and errno 13 in os.makedirs?')
['open()', 'EACCES', 'os.makedirs']
>>> find_identifiers("Globex FY2024 revenue E0502")  # a period code is a period, not an identifier
['E0502']
>>> split_identifier("ModuleNotFoundError"), split_identifier("max_file_bytes")
('module not found error', 'max file bytes')
"""

from __future__ import annotations

import re

from serving.analysis.period_codes import code_year

_PATTERNS = [
    r'"[^"]{2,80}"',                                   # quoted strings
    r"`[^`]{2,80}`",                                   # code spans
    r"(?<![\w/])--?[a-zA-Z][\w-]*",                    # command-line flags
    r"(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]+)+/?",       # paths
    r"\b0x[0-9a-fA-F]+\b",                             # hex codes
    r"\b[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+(?:\(\))?",   # dotted names (os.path.join, a.b())
    r"\b[A-Za-z_]\w*\(\)",                             # calls: open()
    r"\b[A-Za-z]+_[\w]+\b",                            # snake_case / UPPER_SNAKE
    r"\b[a-z]+[A-Z]\w*\b",                             # camelCase
    r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b",          # CamelCase
    r"\bE[A-Z]{3,}\b",                                 # errno names: EACCES, ENOENT
    r"\b[A-Z]{1,6}-?\d{2,}\b",                         # codes: E0502, HTTP404, CVE-like
]
_IDENTIFIER = re.compile("|".join(f"(?:{p})" for p in _PATTERNS))
_PLAIN_WORD = re.compile(r"^[A-Za-z][a-z]*$")


def find_identifiers(query: str) -> list[str]:
    """Identifier-like tokens of ``query`` in order of appearance, without duplicates."""
    found: list[str] = []
    for match in _IDENTIFIER.finditer(query):
        token = match.group(0).strip("\"`")
        if token.endswith(".") or _PLAIN_WORD.match(token):
            token = token.rstrip(".")
        if token and token not in found and not _PLAIN_WORD.match(token) and code_year(token) is None:
            found.append(token)  # "FY2024" is a period (serving.analysis.period_codes), which embeddings read well
    return found


def split_identifier(token: str) -> str:
    """Words of an identifier: camel/snake/dotted/flag pieces, lower-cased."""
    token = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", token)
    token = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", token)
    return " ".join(w.lower() for w in re.split(r"[^A-Za-z0-9]+", token) if w)
