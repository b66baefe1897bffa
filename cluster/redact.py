"""What HTTP responses may show of the server's filesystem: no absolute paths.

:func:`hide_paths` rewrites a message (an error, an ingest job's record): each named root (the data
folder, the models folder) becomes its label, any other absolute path its last component behind
``…/``, API routes stay. :func:`public_source` is the source label a response shows: a document
ingested without ``--source`` is labelled with the absolute path of the ingested folder (its document
ids depend on it, so it stays stored as it is); a response shows that folder's name, and the paths
of its documents are relative to it already.

>>> hide_paths("no index at /srv/strata/tenants/acme/lance: run it", {"<data_dir>": "/srv/strata"})
'no index at <data_dir>/tenants/acme/lance: run it'
>>> hide_paths("[Errno 36] File name too long: '/home/u/data/uploads/x/notes.md' (see /v1/ingests/ab)")
"[Errno 36] File name too long: '…/notes.md' (see /v1/ingests/ab)"
>>> hide_paths("text/markdown, 2024/01/02, s3://bucket/key, /tmp")
'text/markdown, 2024/01/02, s3://bucket/key, /tmp'
>>> public_source("/home/u/corpora/python-docs"), public_source("scifact"), public_source("/")
('python-docs', 'scifact', '/')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

# an absolute POSIX path: a "/" not inside a word, a number, a URL or an already-labelled root
_ABSOLUTE = re.compile(r"(?<![\w.~:/>@-])/(?=[^\s/])[^\s'\"`<>|,;()\[\]{}]*")
_API = ("/v1/", "/v1", "/readyz", "/healthz", "/docs", "/redoc", "/openapi.json", "/metrics")
_WINDOWS = re.compile(r"^[A-Za-z]:[\\/]")


def _tail(match: re.Match) -> str:
    path = match.group(0)
    if path.count("/") < 2 or path.startswith(_API):
        return path
    return "…/" + path.rstrip("/").rsplit("/", 1)[-1]


def hide_paths(text: str, roots: Mapping[str, str | os.PathLike | None] | None = None) -> str:
    """``text`` without absolute server paths: each of ``roots`` (label → folder; as given and resolved)
    becomes its label (an empty label: the folder and its ``/`` are dropped), any other absolute path
    ``…/<last component>``."""
    if not text:
        return text
    pairs: list[tuple[str, str]] = []
    for label, root in (roots or {}).items():
        if root is None or "://" in str(root):
            continue
        for form in {str(root), str(Path(root).expanduser().resolve())}:
            form = form.rstrip("/")
            if form.startswith("/"):
                pairs.append((label, form))
    home = str(Path.home()).rstrip("/")
    if home.count("/") >= 2:
        pairs.append(("~", home))
    for label, root in sorted(pairs, key=lambda p: -len(p[1])):  # an empty label drops the root and its "/"
        pattern = re.escape(root) + ("/" if not label else r"(?![\w.-])")
        text = re.sub(pattern, label.replace("\\", r"\\"), text)
    return _ABSOLUTE.sub(_tail, text)


def hide_paths_in(value: Any, roots: Mapping[str, str | os.PathLike | None] | None = None) -> Any:
    """:func:`hide_paths` on every string in ``value`` (dicts, lists, tuples)."""
    if isinstance(value, str):
        return hide_paths(value, roots)
    if isinstance(value, dict):
        return {k: hide_paths_in(v, roots) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(hide_paths_in(v, roots) for v in value)
    return value


def public_source(source: str | None) -> str:
    """The source label a response shows: an absolute path (the default label, the ingested folder)
    becomes the folder's name; any other label is shown as it is."""
    if not source:
        return source or ""
    if source.startswith("/"):
        return PurePosixPath(source).name or source
    if _WINDOWS.match(source):
        return PureWindowsPath(source).name or source
    return source
