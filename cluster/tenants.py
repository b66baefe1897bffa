"""Tenant names: the namespace every document, section, chunk and BM25 posting belongs to.

A request's tenant comes from its API key (``serving.api.auth``); the CLI takes ``--tenant``.
Without either, everything is in :data:`DEFAULT_TENANT`, so the embedded default needs no setup.

>>> validate_tenant("acme-eu")
'acme-eu'
>>> validate_tenant("Bad Name")
Traceback (most recent call last):
...
ValueError: tenant 'Bad Name': use 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit
"""

from __future__ import annotations

import re

DEFAULT_TENANT = "default"
_TENANT = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")


def validate_tenant(name: str) -> str:
    """``name`` if it is a valid tenant name, else ``ValueError`` saying what is allowed."""
    if not isinstance(name, str) or not _TENANT.fullmatch(name):
        raise ValueError(f"tenant {name!r}: use 1-63 lowercase letters, digits, '-' or '_', "
                         "starting with a letter or digit")
    return name
